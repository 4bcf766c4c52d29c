"""Whether the database takes a write: the row ``/healthz`` writes (table ``health_checks``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.db.models import HealthCheck, utcnow

ROW = "healthz"


def check_write(session: Session) -> None:
    """Write the health row (the caller commits: the write is only made once it is on disk);
    a database that cannot take it raises, as any write of a request would."""
    row = session.get(HealthCheck, ROW)
    if row is None:
        session.add(HealthCheck(name=ROW, checked_at=utcnow()))
    else:
        row.checked_at = utcnow()
    session.flush()
