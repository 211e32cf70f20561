"""The OpenAPI document printed without a server or a database: the frontend's typed client is generated
from it (`python -m backend.api.openapi_json > frontend/openapi.json`). Its own module because it imports
the app (which declares every endpoint), and the app serves the document: openapi.py imports neither.
"""

from __future__ import annotations

import json

import backend.api.app  # noqa: F401 - importing the app declares every endpoint
from backend.api.openapi import document


def main() -> None:
    print(json.dumps(document(), indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
