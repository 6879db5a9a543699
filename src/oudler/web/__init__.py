"""The web table: a person plays a match against three computer players in the browser.

``create_app`` (``oudler.web.app``) builds the FastAPI application; ``oudler serve`` runs it.
"""
