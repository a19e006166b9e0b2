# Sets SystemdCgroup = true in runc's options of containerd's config.toml (config version 2, as
# containerd 1.7 writes it; version 3 for containerd 2.x), editing the file in place and keeping
# everything else byte for byte: the file is nvidia-ctk's too. Prints "changed" when it wrote.
# Sources: https://kubernetes.io/docs/setup/production-environment/container-runtimes/#containerd-systemd
# and containerd's docs/cri/config.md (the runc options table; plugin ids per config version).
import os
import re
import sys

PLUGINS = {2: "io.containerd.grpc.v1.cri", 3: "io.containerd.cri.v1.runtime"}


def main(path):
    text = open(path).read() if os.path.exists(path) else ""
    version = 2
    m = re.search(r"^\s*version\s*=\s*([0-9]+)\s*$", text, re.M)
    if m:
        version = int(m.group(1))
    elif text.strip():
        sys.exit(path + " has no `version = 2` or `version = 3` line: refusing to edit a"
                 " version 1 containerd configuration")
    if version not in PLUGINS:
        sys.exit(path + ": unknown containerd config version %d" % version)
    runc = '[plugins."%s".containerd.runtimes.runc]' % PLUGINS[version]
    options = runc[:-1] + ".options]"
    lines = text.splitlines(keepends=True)
    out = None
    header = [i for i, l in enumerate(lines) if l.strip() == options]
    if header:
        start = header[0] + 1
        end = start
        while end < len(lines) and not lines[end].lstrip().startswith("["):
            end += 1
        indent = re.match(r"\s*", lines[header[0]]).group(0) + "  "
        for i in range(start, end):
            kv = re.match(r"(\s*)SystemdCgroup\s*=\s*(\S+)", lines[i])
            if kv:
                if kv.group(2) == "true":
                    return
                lines[i] = kv.group(1) + "SystemdCgroup = true\n"
                break
        else:
            lines.insert(start, indent + "SystemdCgroup = true\n")
        out = "".join(lines)
    else:
        # No runc options yet: declare runc whole, since a runtime table replaces containerd's
        # default runc entry (its runtime_type too).
        section = ""
        if not any(l.strip() == runc for l in lines):
            section += "\n" + runc + '\n  runtime_type = "io.containerd.runc.v2"\n'
        section += "\n" + options + "\n  SystemdCgroup = true\n"
        if not text.strip():
            text = "version = %d\n" % version
        out = text + ("" if text.endswith("\n") else "\n") + section
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".gpugen-tmp"
    with open(tmp, "w") as f:
        f.write(out)
    if os.path.exists(path):
        st = os.stat(path)
        os.chmod(tmp, st.st_mode & 0o7777)
    else:
        os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    print("changed")


if __name__ == "__main__":
    main(sys.argv[1])
