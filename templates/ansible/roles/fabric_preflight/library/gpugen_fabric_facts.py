# Reads what NCCL's GPUDirect RDMA over InfiniBand or RoCE depends on, and says what is wrong:
# the HCA ports (/sys/class/infiniband, what ibstat prints), PCIe ACS on the switch downstream
# ports above the GPUs and HCAs (lspci -vvv's ACSCtl), and whether the IOMMU translates their DMA
# (/sys/kernel/iommu_groups/N/type). Reads only; changes nothing.
# ACS is judged on PCIe switch downstream ports only: there it sends the peer-to-peer traffic
# between a GPU and an HCA under the same switch up to the CPU root complex ("If PCI switches have
# ACS enabled, it needs to be disabled", NCCL troubleshooting, PCI Access Control Services:
# https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html). A root port's
# ACS only governs traffic that crosses the root complex anyway, and the kernel turns it on there
# to keep IOMMU groups apart: a root port (or an upstream port) with ACS on is no problem.
"""gpugen_fabric_facts: the InfiniBand/RoCE preflight of role fabric_preflight."""

import os
import re

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r"""
module: gpugen_fabric_facts
short_description: Check HCA ports, PCIe ACS and the IOMMU before a GPU node is installed
description:
  - Lists every port under I(infiniband_root) with its state, physical state, link layer, rate
    and subnet manager LID, selects the ports NCCL uses (I(ib_hca), as NCCL_IB_HCA reads), and
    reports each one that is not Active and LinkUp, not of I(link_layer), slower than I(link_gbps),
    or (InfiniBand) without a subnet manager; fewer than I(hca_ports) good ports; a PCIe switch
    downstream port with ACS source validation on above a GPU or an HCA (root ports are not
    judged); an IOMMU group of a GPU or HCA whose
    DMA is translated.
options:
  infiniband_root: {type: str, default: /sys/class/infiniband}
  iommu_groups_root: {type: str, default: /sys/kernel/iommu_groups}
  cmdline: {type: str, default: /proc/cmdline}
  ib_hca: {type: str, default: ""}
  link_layer: {type: str, required: true}
  hca_ports: {type: int, default: 0}
  link_gbps: {type: int, default: 0}
author: gpugen
"""

RETURN = r"""
ports: {description: every HCA port found, type: list}
problems: {description: what is wrong, one sentence each, type: list}
"""

HEADER = re.compile(
    r"^(?P<bdf>[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) .*?\[(?P<cls>[0-9a-f]{4})\]: "
    r".*\[(?P<vendor>[0-9a-f]{4}):(?P<device>[0-9a-f]{4})\]"
)
BUS = re.compile(r"Bus: primary=(\w+), secondary=(\w+), subordinate=(\w+)")
# The PCI Express capability line, as pciutils' ls-caps.c (cap_express) prints it at -vv and more:
# "Capabilities: [40] Express (v2) Downstream Port (Slot+), MSI 00", "... Root Port (Slot-), ...".
# https://github.com/pciutils/pciutils/blob/master/ls-caps.c
EXPRESS = re.compile(
    r"Capabilities: \[[0-9a-f]+\] Express (?:\(v[0-9]+\) )?(?P<port>[A-Za-z/ -]+?)(?: \(Slot[+-]\))?, MSI"
)
DOWNSTREAM_PORT = "Downstream Port"


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return ""


def word(value):
    """'4: ACTIVE' -> 'ACTIVE'; 'LinkUp' -> 'LinkUp'."""
    return value.split(":", 1)[1].strip() if ":" in value else value


def ports_of(root):
    out = []
    for dev in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        pdir = os.path.join(root, dev, "ports")
        for port in sorted(os.listdir(pdir)) if os.path.isdir(pdir) else []:
            base = os.path.join(pdir, port)
            rate = read(os.path.join(base, "rate"))
            gbps = re.match(r"\s*([0-9]+)", rate)
            out.append(
                {
                    "device": dev,
                    "port": port,
                    "state": word(read(os.path.join(base, "state"))),
                    "phys_state": word(read(os.path.join(base, "phys_state"))),
                    "link_layer": read(os.path.join(base, "link_layer")),
                    "rate": rate,
                    "rate_gbps": int(gbps.group(1)) if gbps else 0,
                    "sm_lid": read(os.path.join(base, "sm_lid")),
                }
            )
    return out


def selected(ports, ib_hca):
    """The ports NCCL_IB_HCA selects: NCCL's syntax (^ excludes, = matches names exactly)."""
    spec = ib_hca.strip()
    if not spec:
        return ports, []
    exclude = spec.startswith("^")
    spec = spec[1:] if exclude else spec
    exact = spec.startswith("=")
    spec = spec[1:] if exact else spec
    entries = []
    for item in filter(None, spec.split(",")):
        name, _, port = item.partition(":")
        entries.append((item, name, port.split(":")[0]))

    def match(p, entry):
        _, name, port = entry
        named = p["device"] == name if exact else p["device"].startswith(name)
        return named and (not port or port == p["port"])

    missing = []
    if not exclude:
        missing = [e[0] for e in entries if not any(match(p, e) for p in ports)]
    chosen = [p for p in ports if any(match(p, e) for e in entries) != exclude]
    return chosen, missing


def pci_devices(module):
    lspci = module.get_bin_path("lspci")
    if lspci is None:
        return None
    rc, out, err = module.run_command([lspci, "-D", "-nn", "-vvv"])
    if rc != 0:
        module.fail_json(msg="lspci -D -nn -vvv failed: " + err)
    devices, current = [], None
    for line in out.splitlines():
        head = HEADER.match(line)
        if head:
            current = dict(head.groupdict(), bus=None, acs="", port="")
            devices.append(current)
        elif current is not None:
            bus = BUS.search(line)
            if bus:
                current["bus"] = tuple(int(x, 16) for x in bus.groups())
            express = EXPRESS.search(line)
            if express:
                current["port"] = express.group("port")
            if "ACSCtl:" in line:
                current["acs"] = line.split("ACSCtl:", 1)[1].strip()
    return devices


def is_gpu(d):
    return d["vendor"] == "10de" and d["cls"] in ("0300", "0302")


def is_hca(d):
    return d["vendor"] == "15b3" and d["cls"] in ("0200", "0207")


def main():
    module = AnsibleModule(
        argument_spec=dict(
            infiniband_root=dict(type="str", default="/sys/class/infiniband"),
            iommu_groups_root=dict(type="str", default="/sys/kernel/iommu_groups"),
            cmdline=dict(type="str", default="/proc/cmdline"),
            ib_hca=dict(type="str", default=""),
            link_layer=dict(type="str", required=True),
            hca_ports=dict(type="int", default=0),
            link_gbps=dict(type="int", default=0),
        ),
        supports_check_mode=True,
    )
    prm = module.params
    problems = []
    ports = ports_of(prm["infiniband_root"])
    chosen, missing = selected(ports, prm["ib_hca"])
    for name in missing:
        problems.append("NCCL_IB_HCA names %s, which this host does not have" % name)
    layer = prm["link_layer"]
    good = 0
    for p in chosen:
        where = "%s port %s" % (p["device"], p["port"])
        if p["link_layer"] != layer:
            if prm["ib_hca"].strip():
                problems.append("%s is %s, not %s" % (where, p["link_layer"] or "unknown", layer))
            continue
        wrong = []
        if p["state"] != "ACTIVE":
            wrong.append("state %s (not ACTIVE)" % (p["state"] or "unknown"))
        if p["phys_state"] != "LinkUp":
            wrong.append("physical state %s (not LinkUp)" % (p["phys_state"] or "unknown"))
        if prm["link_gbps"] and p["rate_gbps"] < prm["link_gbps"]:
            wrong.append("rate %s (expected %d Gb/sec)" % (p["rate"] or "unknown", prm["link_gbps"]))
        if layer == "InfiniBand" and int(p["sm_lid"] or "0", 0) == 0:
            wrong.append("no subnet manager (sm_lid %s)" % (p["sm_lid"] or "missing"))
        if wrong:
            problems.append(where + ": " + ", ".join(wrong))
        else:
            good += 1
    wanted = prm["hca_ports"] or 1
    if good < wanted:
        problems.append(
            "%d %s HCA port(s) Active%s, expected %d"
            % (good, layer, " at %d Gb/sec" % prm["link_gbps"] if prm["link_gbps"] else "", wanted)
        )

    devices = pci_devices(module)
    if devices is None:
        problems.append("lspci is missing: install pciutils, which the ACS check reads")
        devices = []
    ends = [d for d in devices if is_gpu(d) or is_hca(d)]
    for bridge in devices:
        if (
            bridge["bus"] is None
            or bridge["port"] != DOWNSTREAM_PORT
            or "SrcValid+" not in bridge["acs"]
        ):
            continue
        below = [
            e["bdf"]
            for e in ends
            if e["bdf"][:4] == bridge["bdf"][:4]
            and bridge["bus"][1] <= int(e["bdf"][5:7], 16) <= bridge["bus"][2]
        ]
        if below:
            problems.append(
                "PCIe ACS is on at switch downstream port %s (ACSCtl: %s) above %s: peer-to-peer"
                " traffic between GPU and HCA goes through the CPU root complex"
                % (bridge["bdf"], bridge["acs"], ", ".join(below))
            )

    groups = prm["iommu_groups_root"]
    cmdline = read(prm["cmdline"])
    if os.path.isdir(groups) and os.listdir(groups):
        for group in sorted(os.listdir(groups), key=lambda g: int(g) if g.isdigit() else 0):
            devices_dir = os.path.join(groups, group, "devices")
            members = sorted(os.listdir(devices_dir)) if os.path.isdir(devices_dir) else []
            ours = [m for m in members if m in {e["bdf"] for e in ends}]
            if not ours:
                continue
            kind = read(os.path.join(groups, group, "type"))
            translated = kind in ("DMA", "DMA-FQ") or (
                not kind and "iommu=pt" not in cmdline.split()
            )
            if translated:
                problems.append(
                    "the IOMMU translates DMA of %s (group %s, type %s): boot with iommu=pt (or"
                    " turn the IOMMU off) for GPUDirect RDMA" % (", ".join(ours), group, kind or "unknown")
                )

    module.exit_json(changed=False, ports=ports, problems=problems, cmdline=cmdline)


if __name__ == "__main__":
    main()
