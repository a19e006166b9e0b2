"""moto 5.2.1's server on 127.0.0.1, with the EC2 and FSx behaviour moto lacks filled in.

Usage: python3 ec2_stand_in.py PORT AMIS_JSON

Every request goes to moto unchanged, except for these shims, each standing for an AWS API
behaviour the Terraform under test depends on:

- Placement groups (moto 5.2.1 answers NotImplementedError): CreatePlacementGroup,
  DescribePlacementGroups and DeletePlacementGroup as the EC2 API reference describes them
  (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreatePlacementGroup.html,
  API_DescribePlacementGroups.html, API_DeletePlacementGroup.html): a name is unique per region
  (InvalidPlacementGroup.Duplicate), an unknown name is InvalidPlacementGroup.Unknown, and a group
  that still holds instances cannot be deleted (InvalidPlacementGroup.InUse). The group is
  "available" as soon as it is created.
- RunInstances with Placement.GroupName: the group must exist (InvalidPlacementGroup.Unknown),
  and DescribeInstances then reports it as the instance's Placement.GroupName (moto drops it).
- MonitorInstances and UnmonitorInstances (moto 5.2.1 answers NotImplementedError): detailed
  monitoring on or off, reported as the instance's Monitoring.State
  (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_MonitorInstances.html).
- FSx: moto's file systems carry no Lifecycle. AWS answers CreateFileSystem with CREATING and
  moves the file system to AVAILABLE once it is built
  (https://docs.aws.amazon.com/fsx/latest/APIReference/API_FileSystem.html, Lifecycle); here a
  described file system is AVAILABLE at once.

- Capacity, when a test asks for a shortage: while capacity.json beside AMIS_JSON says
  {"instanceType": TYPE, "launches": N}, the next N RunInstances of TYPE succeed and every later
  one fails as EC2 fails a launch it has no capacity for: the server error
  InsufficientInstanceCapacity, HTTP 500
  (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html, "Server error
  codes"). Without the file, capacity is unlimited, as moto has it.

The Ubuntu image the Terraform's owner-pinned lookup finds comes from AMIS_JSON (moto's
MOTO_AMIS_PATH): an image of Canonical's account 099720109477 under Canonical's naming scheme
(https://documentation.ubuntu.com/aws/aws-how-to/instances/find-ubuntu-images/).

Every request is appended to requests.log beside AMIS_JSON (action and region), so a test can
count what Terraform asked for.
"""

import io
import json
import os
import re
import sys
import threading
import uuid
from urllib.parse import parse_qs

PORT = int(sys.argv[1])
os.environ["MOTO_AMIS_PATH"] = sys.argv[2]
LOG = os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), "requests.log")
CAPACITY = os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), "capacity.json")

from moto.ec2.models import ec2_backends  # noqa: E402 (after MOTO_AMIS_PATH)
from moto.moto_server.werkzeug_app import (  # noqa: E402
    DomainDispatcherApplication,
    create_backend_app,
)
from werkzeug.serving import run_simple  # noqa: E402

ACCOUNT = "123456789012"
NS = "http://ec2.amazonaws.com/doc/2016-11-15/"
LOCK = threading.Lock()
GROUPS = {}  # (region, name) -> {"id", "strategy", "partitions", "spread", "tags"}
INSTANCE_GROUP = {}  # instance id -> (region, group name)


def esc(s):
    return (
        str(s)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def region_of(environ):
    m = re.search(r"Credential=[^/]+/\d+/([a-z0-9-]+)/", environ.get("HTTP_AUTHORIZATION", ""))
    return m.group(1) if m else "us-east-1"


def xml(action, body, status="200 OK"):
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<{action}Response xmlns="{NS}"><requestId>{uuid.uuid4()}</requestId>'
        f"{body}</{action}Response>"
    )
    return status, text


def error(code, message):
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<Response><Errors><Error><Code>{esc(code)}</Code><Message>{esc(message)}</Message>"
        f"</Error></Errors><RequestID>{uuid.uuid4()}</RequestID></Response>"
    )
    return "400 Bad Request", text


def indexed(params, prefix):
    out = []
    i = 1
    while f"{prefix}.{i}" in params:
        out.append(params[f"{prefix}.{i}"])
        i += 1
    return out


def group_xml(region, name, g):
    tags = "".join(
        f"<item><key>{esc(k)}</key><value>{esc(v)}</value></item>" for k, v in g["tags"].items()
    )
    extra = ""
    if g["partitions"]:
        extra += f"<partitionCount>{g['partitions']}</partitionCount>"
    if g["spread"]:
        extra += f"<spreadLevel>{esc(g['spread'])}</spreadLevel>"
    arn = f"arn:aws:ec2:{region}:{ACCOUNT}:placement-group/{name}"
    return (
        f"<groupName>{esc(name)}</groupName><state>available</state>"
        f"<strategy>{esc(g['strategy'])}</strategy><groupId>{g['id']}</groupId>"
        f"<groupArn>{esc(arn)}</groupArn>{extra}<tagSet>{tags}</tagSet>"
    )


def live_instances(region, name):
    backend = ec2_backends[ACCOUNT][region]
    out = []
    for iid, (r, n) in INSTANCE_GROUP.items():
        if r == region and n == name:
            try:
                inst = backend.get_instance(iid)
            except Exception:
                continue
            if inst.state not in ("terminated", "shutting-down"):
                out.append(iid)
    return out


def placement_groups(action, params, region):
    with LOCK:
        if action == "CreatePlacementGroup":
            name = params.get("GroupName", "")
            if (region, name) in GROUPS:
                return error(
                    "InvalidPlacementGroup.Duplicate",
                    f"The placement group '{name}' already exists.",
                )
            tags = {}
            i = 1
            while f"TagSpecification.1.Tag.{i}.Key" in params:
                tags[params[f"TagSpecification.1.Tag.{i}.Key"]] = params.get(
                    f"TagSpecification.1.Tag.{i}.Value", ""
                )
                i += 1
            g = {
                "id": "pg-" + uuid.uuid4().hex[:17],
                "strategy": params.get("Strategy", "cluster"),
                "partitions": params.get("PartitionCount"),
                "spread": params.get("SpreadLevel"),
                "tags": tags,
            }
            GROUPS[(region, name)] = g
            return xml(action, f"<placementGroup>{group_xml(region, name, g)}</placementGroup>")
        if action == "DescribePlacementGroups":
            names = indexed(params, "GroupName")
            ids = indexed(params, "GroupId")
            for n in names:
                if (region, n) not in GROUPS:
                    return error(
                        "InvalidPlacementGroup.Unknown",
                        f"The Placement Group '{n}' is unknown.",
                    )
            items = ""
            for (r, n), g in sorted(GROUPS.items()):
                if r != region or (names and n not in names) or (ids and g["id"] not in ids):
                    continue
                items += f"<item>{group_xml(r, n, g)}</item>"
            return xml(action, f"<placementGroupSet>{items}</placementGroupSet>")
        # DeletePlacementGroup
        name = params.get("GroupName", "")
        if (region, name) not in GROUPS:
            return error(
                "InvalidPlacementGroup.Unknown", f"The Placement Group '{name}' is unknown."
            )
        if live_instances(region, name):
            return error(
                "InvalidPlacementGroup.InUse",
                f"There are instances in the placement group '{name}'.",
            )
        del GROUPS[(region, name)]
        return xml(action, "<return>true</return>")


def monitoring(action, params, region):
    """Detailed monitoring switched on or off: the instance's Monitoring.State afterwards."""
    backend = ec2_backends[ACCOUNT][region]
    state = "enabled" if action == "MonitorInstances" else "disabled"
    items = ""
    for iid in indexed(params, "InstanceId"):
        try:
            backend.get_instance(iid).monitoring_state = state
        except Exception:
            return error(
                "InvalidInstanceID.NotFound", f"The instance ID '{iid}' does not exist"
            )
        items += (
            f"<item><instanceId>{esc(iid)}</instanceId>"
            f"<monitoring><state>{state}</state></monitoring></item>"
        )
    return xml(action, f"<instancesSet>{items}</instancesSet>")


def out_of_capacity(params):
    """Whether this launch finds no capacity (capacity.json), counting it down if it does."""
    if not os.path.exists(CAPACITY):
        return False
    with open(CAPACITY, encoding="utf-8") as f:
        want = json.load(f)
    if params.get("InstanceType") != want["instanceType"]:
        return False
    if want["launches"] > 0:
        want["launches"] -= 1
        with open(CAPACITY, "w", encoding="utf-8") as f:
            json.dump(want, f)
        return False
    return True


def capacity_error(params):
    """EC2's answer to a launch it has no capacity for: a server error (HTTP 500)."""
    _, text = error(
        "InsufficientInstanceCapacity",
        f"We currently do not have sufficient {params.get('InstanceType', '')} capacity in the"
        " Availability Zone you requested. Our system will be working on provisioning additional"
        " capacity.",
    )
    return "500 Internal Server Error", text


def fsx_lifecycle(body, created):
    """moto's FileSystem has no Lifecycle at all: CREATING when created, AVAILABLE described."""
    doc = json.loads(body)
    for fs in doc.get("FileSystems", []) + ([doc["FileSystem"]] if "FileSystem" in doc else []):
        fs["Lifecycle"] = "CREATING" if created else "AVAILABLE"
    return json.dumps(doc).encode("utf-8")


class Shims:
    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        region = region_of(environ)
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        params = {}
        if environ.get("CONTENT_TYPE", "").startswith("application/x-www-form-urlencoded"):
            params = {k: v[0] for k, v in parse_qs(body.decode("utf-8")).items()}
        action = params.get("Action") or target.rsplit(".", 1)[-1]
        with LOCK, open(LOG, "a", encoding="utf-8") as log:
            log.write(f"{action} {region}\n")

        if action in ("CreatePlacementGroup", "DescribePlacementGroups", "DeletePlacementGroup"):
            status, text = placement_groups(action, params, region)
            data = text.encode("utf-8")
            start_response(status, [("Content-Type", "text/xml"), ("Content-Length", str(len(data)))])
            return [data]

        if action in ("MonitorInstances", "UnmonitorInstances"):
            status, text = monitoring(action, params, region)
            data = text.encode("utf-8")
            start_response(status, [("Content-Type", "text/xml"), ("Content-Length", str(len(data)))])
            return [data]

        if action == "RunInstances":
            with LOCK:
                short = out_of_capacity(params)
            if short:
                status, text = capacity_error(params)
                data = text.encode("utf-8")
                start_response(status, [("Content-Type", "text/xml"), ("Content-Length", str(len(data)))])
                return [data]

        group = None
        if action == "RunInstances" and params.get("Placement.GroupName"):
            group = params["Placement.GroupName"]
            if (region, group) not in GROUPS:
                status, text = error(
                    "InvalidPlacementGroup.Unknown",
                    f"The Placement Group '{group}' is unknown.",
                )
                data = text.encode("utf-8")
                start_response(status, [("Content-Type", "text/xml")])
                return [data]

        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"] = status
            captured["headers"] = headers
            return lambda b: None

        out = b"".join(self.app(environ, capture))
        if target.endswith((".CreateFileSystem", ".DescribeFileSystems")) and captured[
            "status"
        ].startswith("200"):
            out = fsx_lifecycle(out, target.endswith(".CreateFileSystem"))
            captured["headers"] = [
                (k, str(len(out)) if k.lower() == "content-length" else v)
                for k, v in captured["headers"]
            ]
        if group is not None and captured["status"].startswith("200"):
            backend = ec2_backends[ACCOUNT][region]
            for iid in re.findall(r"<instanceId>(i-[0-9a-f]+)</instanceId>", out.decode("utf-8")):
                INSTANCE_GROUP[iid] = (region, group)
                backend.get_instance(iid).placement.group_name = group
        start_response(captured["status"], captured["headers"])
        return [out]


if __name__ == "__main__":
    app = Shims(DomainDispatcherApplication(create_backend_app))
    run_simple("127.0.0.1", PORT, app, threaded=True)
