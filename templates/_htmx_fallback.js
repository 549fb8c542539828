window.htmx || document.write('<script src="{{ url_for('static', filename='vendor/htmx.min.js') }}"><\/script>')
