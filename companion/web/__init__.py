"""Request-level helpers shared by the blueprints: htmx, headers and secrets in logs, static
assets, the installable app, languages, form helpers and the forms built below the blueprints
(the round form, whose checks live in companion.services.round_check), redirects and public
links. Services stay below this package: they import nothing from it
(tests/test_services_below_blueprints.py)."""
