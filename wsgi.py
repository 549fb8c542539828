"""WSGI entry point: ``gunicorn wsgi:app`` or ``flask --app wsgi ...``."""

from companion import create_app, warm_up

app = create_app()
warm_up(app)  # templates compiled before the first request (each worker imports this module)
