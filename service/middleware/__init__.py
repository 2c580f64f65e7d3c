"""The cross-cutting work of every HTTP request: small pure ASGI middlewares, one job each (STYLE 4),
none of which buffers a body. Their order, and why: docs/development.md, "The middleware".
"""
