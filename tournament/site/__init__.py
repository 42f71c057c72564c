"""The site: the top layer, which puts the apps together (docs/design.md, "Layers").

The root URL map (``urls``), the servers' entry points (``wsgi`` with the public pages' response
cache around Django, ``asgi``), and the demo of ``make demo`` (``demo`` and its Dou Dizhu and team
events, the ``demo`` management command), which drives every app's services. Nothing imports it; the
modules directly in ``tournament/`` (the core) import no app.
"""
