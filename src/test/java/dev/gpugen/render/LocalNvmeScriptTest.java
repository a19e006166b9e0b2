package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local_nvme role's script, run by the real bash against a stand-in sysfs (four instance-store
 * NVMe namespaces beside the EBS root volume, their models padded as sysfs pads them) and stand-ins
 * of mdadm, blkid, mkfs.xfs, mount, mountpoint and systemctl that log their calls and keep the
 * array's state in files: the array is made of the instance-store volumes only, it and its file
 * system are made once, a second run changes nothing, after a reboot (array assembled, nothing
 * mounted) the same file system is mounted again, containerd's root moves onto it once with
 * containerd stopped meanwhile (a reboot binds the array's copy again, never the root disk's older
 * one over it), and a type without instance store is an error.
 */
@RealToolsTest
class LocalNvmeScriptTest {
  private static final String INSTANCE_STORE = "Amazon EC2 NVMe Instance Storage        ";
  private static final String EBS = "Amazon Elastic Block Store              ";

  @TempDir Path tmp;

  private Path sys;
  private Path dev;
  private Path state;
  private Path log;
  private Path bin;

  private void node(int instanceStoreVolumes) throws Exception {
    sys = tmp.resolve("sys");
    dev = tmp.resolve("dev");
    state = tmp.resolve("state");
    log = tmp.resolve("calls.log");
    bin = tmp.resolve("bin");
    Files.createDirectories(state);
    Files.createDirectories(dev);
    Files.writeString(log, "");
    model("nvme0n1", EBS);
    for (int i = 1; i <= instanceStoreVolumes; i++) {
      model("nvme" + i + "n1", INSTANCE_STORE);
    }
    String logLine = "echo \"$(basename \"$0\") $*\" >> '" + log + "'\n";
    String s = state.toString();
    tool(
        "mdadm",
        logLine
            + "case \"$1\" in\n"
            + "  --assemble) [ -e '"
            + s
            + "/array' ] && mkdir -p '"
            + dev
            + "/md' && touch '"
            + dev
            + "/md/gpugen-local-nvme'; exit 0 ;;\n"
            + "  --create) for a; do case \"$a\" in */md/*) md=$a ;; esac; done;"
            + " mkdir -p \"$(dirname \"$md\")\" && touch \"$md\" '"
            + s
            + "/array' ;;\n"
            + "esac\n");
    tool("blkid", logLine + "[ -e '" + s + "/fs' ] && echo xfs\nexit 0\n");
    tool("mkfs.xfs", logLine + "touch '" + s + "/fs'\n");
    tool("mountpoint", logLine + "[ -e \"" + s + "/mounted$(echo \"$2\" | tr / _)\" ]\n");
    tool(
        "mount",
        logLine + "for last; do :; done\ntouch \"" + s + "/mounted$(echo \"$last\" | tr / _)\"\n");
    tool(
        "systemctl",
        logLine
            + "case \"$1\" in\n"
            + "  is-active) [ -e '"
            + s
            + "/containerd-active' ] ;;\n"
            + "  stop) rm -f '"
            + s
            + "/containerd-active' ;;\n"
            + "  start) touch '"
            + s
            + "/containerd-active' ;;\n"
            + "esac\n");
  }

  private void model(String namespace, String model) throws Exception {
    Path device = sys.resolve("block/" + namespace + "/device");
    Files.createDirectories(device);
    Files.writeString(device.resolve("model"), model + "\n");
  }

  private void tool(String name, String body) throws Exception {
    Files.createDirectories(bin);
    AnsibleToolsTest.executable(bin.resolve(name), "#!/bin/sh\n" + body);
  }

  private RealTools.Result run(String... args) throws Exception {
    Path script =
        Golden.repo().resolve("templates/ansible/roles/local_nvme/files/gpugen-local-nvme");
    Map<String, String> env = new HashMap<>();
    env.put("PATH", bin + ":/usr/bin:/bin");
    env.put("GPUGEN_LOCAL_NVME_SYSFS", sys.toString());
    env.put("GPUGEN_LOCAL_NVME_DEV", dev.toString());
    env.put("GPUGEN_LOCAL_NVME_CONTAINERD_DIR", tmp.resolve("var/lib/containerd").toString());
    List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    return RealTools.run(tmp, Duration.ofMinutes(1), env, cmd);
  }

  private List<String> calls(String tool) throws Exception {
    return Files.readAllLines(log).stream().filter(l -> l.startsWith(tool + " ")).toList();
  }

  @Test
  void theInstanceStoreBecomesOneArrayOnceAndContainerdMovesOntoIt() throws Exception {
    node(4);
    Path scratch = tmp.resolve("scratch");
    Path containerd = tmp.resolve("var/lib/containerd");
    Files.createDirectories(containerd.resolve("io.containerd.content.v1.content"));
    Files.writeString(containerd.resolve("io.containerd.content.v1.content/blob"), "layer");
    Files.writeString(state.resolve("containerd-active"), "");

    RealTools.Result first = run("--mount", scratch.toString(), "--containerd");
    first.assertOk();
    String md = dev + "/md/gpugen-local-nvme";
    assertEquals(
        List.of(
            "mdadm --create --force --run "
                + md
                + " --level=0 --name=gpugen-local-nvme --raid-devices=4 "
                + dev
                + "/nvme1n1 "
                + dev
                + "/nvme2n1 "
                + dev
                + "/nvme3n1 "
                + dev
                + "/nvme4n1"),
        calls("mdadm --create"),
        "the instance-store namespaces only, never the EBS root (nvme0n1)");
    assertEquals(List.of("mkfs.xfs -K -l su=8b " + md), calls("mkfs.xfs"));
    assertEquals(
        List.of(
            "mount -t xfs -o defaults,noatime " + md + " " + scratch,
            "mount --bind " + scratch + "/containerd " + containerd),
        calls("mount"));
    // containerd was running: stopped for the move, started again; its state went along.
    assertEquals(
        List.of("systemctl stop containerd.service", "systemctl start containerd.service"),
        calls("systemctl").stream().filter(l -> !l.contains("is-active")).toList());
    assertEquals(
        "layer",
        Files.readString(scratch.resolve("containerd/io.containerd.content.v1.content/blob")));
    assertTrue(first.output().contains("changed: created the RAID 0 array"), first.output());

    // Again: everything is there, nothing is done.
    Files.writeString(log, "");
    RealTools.Result second = run("--mount", scratch.toString(), "--containerd");
    second.assertOk();
    assertEquals("unchanged", second.output().strip());
    assertEquals(List.of(), calls("mdadm --create"));
    assertEquals(List.of(), calls("mkfs.xfs"));
    assertEquals(List.of(), calls("mount"));

    // containerd writes to its root on the array; the root disk's folder keeps what was there
    // before the move.
    Files.writeString(
        scratch.resolve("containerd/io.containerd.content.v1.content/blob"), "newer layer");

    // A reboot: the array comes back from its superblocks, nothing is mounted. The file system is
    // kept (no mkfs) and mounted again, containerd's root bound again, and the array's containerd
    // state is not overwritten by the older copy on the root disk.
    Files.delete(dev.resolve("md/gpugen-local-nvme"));
    try (var mounted = Files.newDirectoryStream(state, "mounted*")) {
      for (Path p : mounted) {
        Files.delete(p);
      }
    }
    Files.writeString(log, "");
    RealTools.Result reboot = run("--mount", scratch.toString(), "--containerd");
    reboot.assertOk();
    assertEquals(List.of("mdadm --assemble --scan"), calls("mdadm"));
    assertEquals(List.of(), calls("mkfs.xfs"));
    assertEquals(2, calls("mount").size(), calls("mount")::toString);
    assertEquals(
        "newer layer",
        Files.readString(scratch.resolve("containerd/io.containerd.content.v1.content/blob")));
    assertTrue(!reboot.output().contains("copied"), reboot.output());
  }

  @Test
  void withoutInstanceStoreTheScriptFailsAndTouchesNothing() throws Exception {
    node(0);
    RealTools.Result r = run("--mount", tmp.resolve("scratch").toString());
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(
        r.output().contains("no device whose model is \"Amazon EC2 NVMe Instance Storage\""),
        r.output());
    assertEquals(List.of(), calls("mdadm"));
  }
}
