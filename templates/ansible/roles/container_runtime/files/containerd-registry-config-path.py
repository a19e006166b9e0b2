# Sets config_path in the CRI plugin's registry table of containerd's config.toml, so containerd
# reads /etc/containerd/certs.d/<registry>/hosts.toml (config version 2, as containerd 1.7 writes
# it: plugins."io.containerd.grpc.v1.cri".registry; version 3, containerd 2.x:
# plugins."io.containerd.cri.v1.images".registry). Edits the file in place and keeps everything
# else byte for byte: the file is nvidia-ctk's too. Prints "changed" when it wrote.
# Source: containerd's docs/hosts.md ("CRI"), https://github.com/containerd/containerd/blob/main/docs/hosts.md
import os
import re
import sys

PLUGINS = {2: "io.containerd.grpc.v1.cri", 3: "io.containerd.cri.v1.images"}


def main(path, folder):
    if not re.match(r"^/[A-Za-z0-9._/-]+$", folder):
        sys.exit("refusing config_path " + repr(folder))
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
    table = '[plugins."%s".registry]' % PLUGINS[version]
    setting = 'config_path = "%s"' % folder
    lines = text.splitlines(keepends=True)
    header = [i for i, l in enumerate(lines) if l.strip() == table]
    if header:
        start = header[0] + 1
        end = start
        while end < len(lines) and not lines[end].lstrip().startswith("["):
            end += 1
        indent = re.match(r"\s*", lines[header[0]]).group(0) + "  "
        for i in range(start, end):
            kv = re.match(r"(\s*)config_path\s*=\s*(.*?)\s*$", lines[i])
            if kv:
                if kv.group(2) == '"%s"' % folder:
                    return
                lines[i] = kv.group(1) + setting + "\n"
                break
        else:
            lines.insert(start, indent + setting + "\n")
        out = "".join(lines)
    else:
        if not text.strip():
            text = "version = %d\n" % version
        out = text + ("" if text.endswith("\n") else "\n") + "\n" + table + "\n  " + setting + "\n"
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".gpugen-tmp"
    with open(tmp, "w") as f:
        f.write(out)
    if os.path.exists(path):
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
    else:
        os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    print("changed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
