#!/usr/bin/python3
"""Renders Home Assistant value templates with Jinja2 (Debian's python3-jinja2), as Home
Assistant's MQTT entities do: `value_json` is the payload parsed as JSON.

    render_jinja.py REQUEST.json

REQUEST.json: {"templates": {"id": "{{ … }}", …}, "payloads": ["{…}", …]}
Prints one JSON object: {"id": ["rendered for payload 0", …], …}; a template error is
rendered as "ERROR: <message>" (Home Assistant then keeps the entity's old state).
"""
import json
import sys

import jinja2

with open(sys.argv[1], encoding="utf-8") as file:
    request = json.load(file)
environment = jinja2.Environment(undefined=jinja2.Undefined)
out = {}
for name, text in request["templates"].items():
    template = environment.from_string(text)
    results = []
    for payload in request["payloads"]:
        try:
            results.append(template.render(value_json=json.loads(payload)))
        except Exception as error:  # noqa: BLE001 - reported to the test
            results.append("ERROR: %s" % error)
    out[name] = results
json.dump(out, sys.stdout)
