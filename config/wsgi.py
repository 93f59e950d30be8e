"""The WSGI application of the web process (gunicorn config.wsgi). Requests run as the
application role (row-level security applies): config.settings.web chooses it, and so does
this entry point under any other settings module (test servers run config.settings.test).

Chunked request bodies: gunicorn de-chunks a ``Transfer-Encoding: chunked`` body into
``wsgi.input`` but, rightly, sends no ``CONTENT_LENGTH``, and Django reads a request
without one as empty (a valid request then got 400 "candidates: This field is
required"). ``ChunkedBodies`` reads such a body here, at most one byte past Django's body
limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``: a larger one still gets the API's 413), and gives
Django the length."""

import io
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.web")
os.environ.setdefault("ENGRAM_DB_CONNECT_AS", "app")


class ChunkedBodies:
    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            from django.conf import settings

            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31
            body = environ["wsgi.input"].read(limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)


application = ChunkedBodies(get_wsgi_application())
