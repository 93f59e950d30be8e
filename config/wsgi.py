import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# Web workers connect as the application role (row-level security applies).
os.environ.setdefault("ENGRAM_DB_CONNECT_AS", "app")
application = get_wsgi_application()
