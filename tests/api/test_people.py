"""Users, rights and tokens over the API, for admins only; the rights trail, for auditors only."""

from __future__ import annotations

from typing import Any

from tests.api.support import app_client, auth, make_user
from tests.support import AsyncConnection, Queue


def test_an_admin_manages_users_rights_and_tokens_and_the_trail_names_the_admin(queue: Queue) -> None:
    admin = make_user(queue.url, "root", "admin")
    auditor = make_user(queue.url, "aud", "audit")
    editor = make_user(queue.url, "ed", "edit")
    with app_client(queue.url) as api:
        created = api.post(
            "/api/users",
            json={
                "name": "fay",
                "rights": ["run", "use_server:web-1"],
                "groups": ["ops"],
                "password": "pw-1",
            },
            headers=auth(admin),
        )
        assert created.status_code == 201, created.text
        assert created.json()["rights"] == ["run", "use_server:web-1"] and created.json()["groups"] == ["ops"]
        granted = api.post("/api/users/fay/rights", json={"rights": ["decide"]}, headers=auth(admin))
        assert granted.json()["rights"] == ["decide", "run", "use_server:web-1"]
        revoked = api.delete("/api/users/fay/rights/use_server:web-1", headers=auth(admin))
        assert revoked.json()["rights"] == ["decide", "run"]
        assert api.delete("/api/users/fay/rights/edit", headers=auth(admin)).json()["error"]["code"] == (
            "grant_not_held"
        )
        listed = api.get("/api/users", params={"limit": 2}, headers=auth(admin)).json()
        assert [u["name"] for u in listed["users"]] == ["aud", "ed"] and listed["next"] == "ed"

        token = api.post("/api/tokens", json={"user": "fay", "expires_in_days": 7}, headers=auth(admin))
        assert token.status_code == 201
        fays = token.json()["token"]
        assert api.get("/api/me", headers=auth(fays)).status_code == 200
        [entry] = api.get("/api/tokens", params={"user": "fay"}, headers=auth(admin)).json()["tokens"]
        assert entry["expires_at"] is not None and entry["revoked_at"] is None and "token" not in entry
        assert api.delete(f"/api/tokens/{entry['id']}", headers=auth(admin)).status_code == 204
        assert api.get("/api/me", headers=auth(fays)).status_code == 401

        # An admin cannot lock themselves out through the API.
        own = api.get("/api/tokens", params={"user": "root"}, headers=auth(admin)).json()["tokens"][0]["id"]
        assert api.delete(f"/api/tokens/{own}", headers=auth(admin)).json()["error"]["code"] == "token_in_use"
        assert api.delete("/api/users/root", headers=auth(admin)).json()["error"]["code"] == "user_is_you"

        assert api.delete("/api/users/fay", headers=auth(admin)).status_code == 204
        assert api.delete("/api/users/fay", headers=auth(admin)).status_code == 404

        # Only admins change rights; only auditors read the trail.
        for method, path, body in (
            ("GET", "/api/users", None),
            ("POST", "/api/users", {"name": "mal", "rights": ["admin"]}),
            ("POST", "/api/users/ed/rights", {"rights": ["admin"]}),
            ("GET", "/api/tokens", None),
            ("GET", "/api/rights-trail", None),
        ):
            answer = api.request(method, path, json=body, headers=auth(editor))
            assert answer.status_code == 403, (method, path, answer.text)
        assert api.get("/api/rights-trail", headers=auth(admin)).status_code == 403

        trail = api.get("/api/rights-trail", params={"user": "fay"}, headers=auth(auditor)).json()["entries"]
    changes = [(e["actor"], e["change"], e["right"], e["server"]) for e in trail]
    # The revocations a removal cascades into come in the database's order.
    assert changes[:8] + sorted(changes[8:], key=str) == [
        ("root", "user_added", None, None),
        ("root", "granted", "run", None),
        ("root", "granted", "use_server", "web-1"),
        ("root", "granted", "decide", None),
        ("root", "revoked", "use_server", "web-1"),
        ("root", "token_created", None, None),
        ("root", "token_revoked", None, None),
        ("root", "user_removed", None, None),
        ("root", "revoked", "decide", None),
        ("root", "revoked", "run", None),
    ]
    assert queue.one("SELECT count(*) FROM users WHERE name = 'mal'") == (0,)


def test_bad_rights_are_refused_with_a_code_and_change_nothing(queue: Queue) -> None:
    admin = make_user(queue.url, "root2", "admin")
    with app_client(queue.url) as api:
        for rights, code in (
            (["sign"], "right_unknown"),
            (["run:99999"], "grant_flow_unknown"),
            (["use_server:"], "grant_server_invalid"),
        ):
            answer = api.post("/api/users", json={"name": "gus", "rights": rights}, headers=auth(admin))
            assert (answer.status_code, answer.json()["error"]["code"]) == (422, code)
        assert api.post("/api/users", json={"name": "root2"}, headers=auth(admin)).status_code == 409
        assert (
            api.post("/api/users/nobody/rights", json={"rights": ["run"]}, headers=auth(admin)).status_code
            == 404
        )
    assert queue.one("SELECT count(*) FROM users WHERE name = 'gus'") == (0,)


def test_saving_a_command_node_over_the_api_takes_use_server_on_its_server(queue: Queue) -> None:

    from backend.actions import servers
    from backend.actions.secret_key import keys_from_text
    from backend.actions.secret_store import SecretStore

    async def register(conn: AsyncConnection) -> None:
        store = SecretStore(keys_from_text("A" * 43 + "="))
        await servers.save_server(conn, store, "db-1", "https://db-1.internal/run", "t", by="test")
        await servers.save_template(
            conn, "db-1", "vacuum", ["vacuumdb", "{db}"], {"db": {"type": "string"}}, "t"
        )

    queue.aconn(register)
    editor = make_user(queue.url, "writer", "edit")
    trusted = make_user(queue.url, "operator", "edit", "use_server:db-1")
    node: dict[str, Any] = {
        "id": "cmd",
        "type": "command",
        "config": {"server": "db-1", "template": "vacuum", "args": {"db": "x"}},
    }
    document = {
        "format": "flowyard.flow/1",
        "name": "vacuum",
        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "manual"}}, node],
        "wires": [{"from": "start", "to": "cmd"}],
    }
    with app_client(queue.url) as api:
        refused = api.post("/api/flows", json=document, headers=auth(editor))
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "server_use_refused")
        assert "use_server:db-1" in refused.json()["error"]["message"]
        assert api.post("/api/flows", json=document, headers=auth(trusted)).status_code == 201
        node["config"]["template"] = "drop-everything"
        unknown = api.post("/api/flows", json=document, headers=auth(trusted))
        assert (unknown.status_code, unknown.json()["error"]["code"]) == (422, "command_template_unknown")
        node["config"] = {"server": "db-1", "command": "dropdb prod"}
        free = api.post("/api/flows", json=document, headers=auth(trusted))
        assert free.status_code == 422
        assert "command_line_refused" in [f["code"] for f in free.json()["error"]["detail"]["findings"]]
    assert queue.one("SELECT count(*) FROM flows WHERE name = 'vacuum'") == (1,)
