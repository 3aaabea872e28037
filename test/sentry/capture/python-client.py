# The python3-sentry-sdk (Debian) scenario of capture.ts: SENTRY_DSN points at the capture server.
import logging
import os

import sentry_sdk
from sentry_sdk.integrations.logging import LoggingIntegration
from sentry_sdk.sessions import auto_session_tracking

sentry_sdk.init(
    dsn=os.environ["SENTRY_DSN"],
    release="cave-game@1.4.2",
    environment="playtest",
    default_integrations=False,
    integrations=[LoggingIntegration(level=logging.INFO, event_level=None)],
    # Sessions are started by hand below; request-mode ones are only tracked with this on.
    auto_session_tracking=True,
)
sentry_sdk.set_user({"id": "player-8", "username": "Miner"})
logging.getLogger().setLevel(logging.INFO)
logging.getLogger("game.world").info("Loaded chunk 12,7")
sentry_sdk.add_breadcrumb(category="input", message="Pressed jump", level="debug")


def dig(depth, tool):
    blocks = {"stone": 3, "dirt": 1}
    return blocks[tool] * depth


# 1. An exception with local variables and breadcrumbs.
try:
    dig(4, "diamond")
except KeyError:
    sentry_sdk.capture_exception()
sentry_sdk.flush()

# 2. A session that ends cleanly.
hub = sentry_sdk.Hub.current
hub.start_session()
hub.end_session()
sentry_sdk.flush()

# 3. Request-mode sessions, sent as aggregates.
for fail in (False, True, False):
    with auto_session_tracking(hub, session_mode="request"):
        if fail:
            sentry_sdk.capture_exception(RuntimeError("request failed"))
sentry_sdk.flush()
hub.client.close()
