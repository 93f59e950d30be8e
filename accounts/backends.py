"""The sign-in throttle as an authentication backend (settings: "Sign-in throttling")."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class SignInThrottleBackend(AxesStandaloneBackend):
    """django-axes' check, for sign-ins that come with a request (every form: ours and the
    admin's). ``authenticate()`` without one — a management command, the test client's
    ``login()`` — is no client's attempt: there is no address to count, and it passes on
    to the password check as before."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
