"""The HTTP layer: FastAPI app factory, routers, templates and security plumbing."""
