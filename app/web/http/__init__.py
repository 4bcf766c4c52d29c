"""The HTTP plumbing: middleware, identity, dependencies, errors and refusals, redirects,
the server process (may import ``app.web.views``; never the routes)."""
