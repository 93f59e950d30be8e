"""Code every app may import and that imports none of them (the bottom layer)."""
