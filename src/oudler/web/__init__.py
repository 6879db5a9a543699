"""The web table over HTTP: routes, security, serving and the page (``static/``), over the game
service in ``oudler.tables``.

``create_app`` (``oudler.web.app``) builds the FastAPI application; ``oudler serve`` runs it.
"""
