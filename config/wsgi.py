"""The WSGI application of the web process (gunicorn config.wsgi). Requests run as the
application role (row-level security applies): config.settings.web chooses it, and so does
this entry point under any other settings module (test servers run config.settings.test)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.web")
os.environ.setdefault("ENGRAM_DB_CONNECT_AS", "app")
application = get_wsgi_application()
