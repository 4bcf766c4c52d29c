# syntax=docker/dockerfile:1
# Stage 1: front-end packages (htmx) from the npm registry, pinned by package-lock.json.
FROM node:20-bookworm-slim AS assets
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=dev

# Stage 2: Python dependencies in a venv.
FROM python:3.11-slim-bookworm AS python-deps
WORKDIR /app
RUN python -m venv /venv
# the locked runtime dependencies first (their layer outlives changes to the code), then the app alone
COPY requirements.txt ./
RUN /venv/bin/pip install --no-cache-dir -r requirements.txt
# a C compiler for the solver's compiled core (app/solver/_core.c; without it the search runs in Python)
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml setup.py README.md ./
COPY app ./app
RUN /venv/bin/pip install --no-cache-dir --no-deps -e . && /venv/bin/pybabel compile -d app/locale \
    && /venv/bin/python -c "import app.solver._core"

# Stage 3: the runtime image, as a non-root user.
FROM python:3.11-slim-bookworm
ENV PATH=/venv/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATA_DIR=/data HOST=0.0.0.0 PORT=8000
RUN useradd --create-home --uid 10001 tretten && mkdir /data && chown tretten /data
WORKDIR /app
COPY --from=python-deps /venv /venv
COPY --from=python-deps /app/app ./app
COPY --from=assets /src/node_modules ./node_modules
COPY pyproject.toml README.md alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# the odds page's measured figures (app/services/assist/odds.py reads them at run time)
COPY docs/survey/results.json docs/survey/gaps-player.json ./docs/survey/
USER tretten
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
# `tretten serve` migrates the database, then serves
CMD ["tretten", "serve"]
