package dev.gpugen.render;

import static dev.gpugen.render.ValidationReports.failed;
import static dev.gpugen.render.ValidationReports.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.Golden;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 05 on three chroot hosts of one pool, each with the stand-ins of an 8 x H100 node
 * (src/test/resources/ansible-stand-ins): every host keeps its own results next to the one
 * multi-node figure, the SSH transport mpirun needs is set up from the controller, and without
 * mpirun the report says the fabric was not tested instead of failing every node. Each pool of a
 * two-pool play measures its own nodes, and a node failing one check of its own (persistence mode,
 * the NVSwitch fabric) fails for that check alone.
 */
@ChrootTest
class ValidationPerNodeTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(25);
  private static final List<String> HOSTS = List.of("node-a", "node-b", "node-c");

  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    for (String tool : List.of("ansible-playbook", "debootstrap", "chroot", "ssh-keygen")) {
      RenderedCase.requireTool(tool);
    }
  }

  @Test
  @Timeout(value = 55, unit = TimeUnit.MINUTES)
  void aNodeThatFailsItsOwnChecksFailsInTheReportBesideTheMultiNodeFigure() throws Exception {
    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      for (String host : HOSTS) {
        Path root = TestRoot.fresh(tmp.resolve(host));
        roots.put(host, root);
        AnsibleToolsTest.installStandIns(root, "391.35", 32);
        Files.createDirectories(root.resolve("etc/ssh"));
        Files.writeString(
            root.resolve("etc/ssh/ssh_host_ed25519_key.pub"),
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
                + host.toUpperCase()
                + "HOSTKEY root@"
                + host
                + "\n");
      }
      // node-b has a GPU that fails the burn-in.
      AnsibleToolsTest.executable(
          roots.get("node-b").resolve("var/cache/gpugen/validation/gpu-burn/gpu_burn"),
          standIn("gpu_burn-one-faulty"));
      // mpirun runs from the first host of the play, the only one that needs it.
      Path mpirun = roots.get("node-a").resolve("opt/amazon/openmpi/bin/mpirun");
      AnsibleToolsTest.executable(mpirun, standIn("mpirun"));

      RealTools.Result r = run(dir, inventory(roots));
      assertNotEquals(0, r.exitCode(), r.output());
      assertEquals(0, RealTools.recap(r.output(), "node-a").get("failed"), r.output());
      assertEquals(1, RealTools.recap(r.output(), "node-b").get("failed"), r.output());
      assertEquals(0, RealTools.recap(r.output(), "node-c").get("failed"), r.output());

      // node-b keeps its own failing burn-in; node-a's pass is not copied over it.
      JsonNode b = report(dir, "node-b");
      assertFalse(b.get("passed").asBoolean(), b::toString);
      JsonNode burn = b.get("checks").get("gpu_burn");
      assertEquals("fail", burn.get("status").asText(), burn::toString);
      assertEquals("7 GPUs OK (exit 1)", burn.get("measured").asText(), burn::toString);
      assertTrue(
          r.output().contains("gpu_burn: measured 7 GPUs OK (exit 1), expected 8 GPUs OK"),
          r.output());
      assertTrue(r.output().contains("node-b                           FAIL"), r.output());
      // Every host carries the one multi-node figure, measured once.
      for (String host : HOSTS) {
        JsonNode multi = report(dir, host).get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("pass", multi.get("status").asText(), host + ": " + multi);
        assertEquals(231.11, multi.get("busbw_gbps").asDouble(), 1e-9, host + ": " + multi);
        // p5.48xlarge: aws-ofi-nccl requires GPUDirect RDMA there (gdr_required).
        assertEquals(
            "busbw reported over 3 nodes, GPUDirect RDMA on NET/Libfabric (GDRDMA)",
            multi.get("expected").asText());
        assertTrue(
            multi.get("measured").asText().contains("4 of 4 NET/Libfabric connections GDRDMA"),
            multi::toString);
      }
      for (String host : List.of("node-a", "node-c")) {
        JsonNode ok = report(dir, host);
        assertTrue(ok.get("passed").asBoolean(), host + ": " + ok);
        assertEquals("pass", ok.get("checks").get("gpu_burn").get("status").asText());
        assertEquals("pass", ok.get("checks").get("persistence_mode").get("status").asText());
      }

      // The SSH transport: one key pair on the controller, outside the rendered files and in
      // .gitignore; its private half on every node (0600), its public half authorized for root,
      // and known_hosts from the inventory's hosts and each node's host key.
      Path key = dir.resolve(".mpi-ssh/id_ed25519");
      String pub = Files.readString(dir.resolve(".mpi-ssh/id_ed25519.pub")).trim();
      assertTrue(pub.startsWith("ssh-ed25519 "), pub);
      assertTrue(Files.readString(dir.resolve(".gitignore")).contains("\n/.mpi-ssh/\n"));
      for (String host : HOSTS) {
        Path root = roots.get(host);
        Path identity = root.resolve("root/.ssh/gpugen_mpi_ed25519");
        assertEquals(Files.readString(key), Files.readString(identity), host);
        assertEquals(
            "rw-------",
            PosixFilePermissions.toString(Files.getPosixFilePermissions(identity)),
            host);
        assertTrue(Files.readString(root.resolve("root/.ssh/authorized_keys")).contains(pub), host);
        List<String> known =
            Files.readAllLines(root.resolve("etc/ssh/gpugen_mpi_known_hosts")).stream()
                .filter(l -> !l.startsWith("#"))
                .toList();
        assertEquals(3, known.size(), known::toString);
        for (String other : HOSTS) {
          assertTrue(
              known.contains(
                  roots.get(other)
                      + " ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
                      + other.toUpperCase()
                      + "HOSTKEY"),
              known::toString);
        }
      }
      List<String> args = Files.readAllLines(mpirun.resolveSibling("mpirun.args"));
      int rsh = args.indexOf("plm_rsh_args");
      assertTrue(rsh > 0, args::toString);
      assertEquals(
          "-i /root/.ssh/gpugen_mpi_ed25519 -o IdentitiesOnly=yes -o BatchMode=yes"
              + " -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/etc/ssh/gpugen_mpi_known_hosts",
          args.get(rsh + 1));
      assertEquals("24", args.get(args.indexOf("-np") + 1), args::toString);

      // Without mpirun the fabric is not tested: the report says so and fails no node for it.
      Files.delete(mpirun);
      AnsibleToolsTest.executable(
          roots.get("node-b").resolve("var/cache/gpugen/validation/gpu-burn/gpu_burn"),
          standIn("gpu_burn"));
      RealTools.Result untested = run(dir, inventory(roots));
      RenderedCase.assertExit(0, untested);
      assertEquals(HOSTS, reportedHosts(untested), untested.output());
      for (String host : HOSTS) {
        JsonNode rep = report(dir, host);
        assertTrue(rep.get("passed").asBoolean(), host + ": " + rep);
        JsonNode multi = rep.get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("not-tested", multi.get("status").asText(), multi::toString);
        assertEquals(
            "fabric not tested: no /opt/amazon/openmpi/bin/mpirun on node-a",
            multi.get("measured").asText());
        assertFalse(multi.has("busbw_gbps"), multi::toString);
      }
      assertTrue(untested.output().contains("not-tested"), untested.output());
    } finally {
      for (Path root : roots.values()) {
        TestRoot.delete(root);
      }
    }
  }

  /**
   * Two pools in one play: 8-GPU p5.48xlarge nodes (a, b) and 4-GPU g6.12xlarge nodes (c, d), each
   * pool in its own placement group. The multi-node all-reduce runs once per pool, from the pool's
   * first node, over that pool's nodes only and with that pool's GPU count; each node records its
   * own pool's figure and is judged by its own pool's threshold (here from the inventory) and
   * GPUDirect RDMA requirement (the p5.48xlarge pool's, not the g6.12xlarge pool's).
   *
   * <p>In the same run, node-a and node-b each fail one check of their own: on node-a persistence
   * mode is off; node-b is an NVSwitch node whose Fabric Manager has not registered the GPUs with
   * the fabric (nvidia-smi's fabric state "In Progress"), where CUDA would fail, so the
   * fabric_manager check fails it. Each node's other check passes: one node's failure is not the
   * other's. Neither check enters the all-reduce figures, which come from mpirun alone.
   */
  @Test
  @Timeout(value = 55, unit = TimeUnit.MINUTES)
  void eachPoolMeasuresItsOwnNodesAndEachNodeFailsItsOwnChecks() throws Exception {
    String reference = Files.readString(RenderedCase.spec("reference"));
    String pool =
        "  - name: h100-small\n"
            + "    instanceType: g6.12xlarge\n"
            + "    count: 2\n"
            + "    market: on-demand\n";
    String anchor = "software:                      # cluster-wide";
    assertTrue(reference.contains(anchor), reference);
    Path spec =
        Files.writeString(tmp.resolve("two-pools.yaml"), reference.replace(anchor, pool + anchor));
    Path out = tmp.resolve("render");
    dev.gpugen.Cli cli = dev.gpugen.Cli.run("render", spec.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli::toString);
    Path dir = out.resolve("ansible");
    assertTrue(
        Files.readString(dir.resolve("group_vars/pool_h100.yml"))
            .contains("\nvalidation_fabric_manager: true\n"),
        "p5.48xlarge: H100 on NVSwitch");
    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      for (String host : List.of("node-a", "node-b", "node-c", "node-d")) {
        Path root = TestRoot.fresh(tmp.resolve(host));
        roots.put(host, root);
        boolean small = host.equals("node-c") || host.equals("node-d");
        AnsibleToolsTest.installStandIns(root, "391.35", small ? 1 : 32);
        if (small) {
          // Four GPUs: nvidia-smi lists four.
          AnsibleToolsTest.executable(
              root.resolve("usr/local/bin/nvidia-smi"),
              standIn("nvidia-smi").replace("for gpu in 0 1 2 3 4 5 6 7;", "for gpu in 0 1 2 3;"));
        }
        Files.createDirectories(root.resolve("etc/ssh"));
        Files.writeString(
            root.resolve("etc/ssh/ssh_host_ed25519_key.pub"),
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
                + host.toUpperCase()
                + "HOSTKEY root@"
                + host
                + "\n");
      }
      AnsibleToolsTest.executable(
          roots.get("node-a").resolve("usr/local/bin/nvidia-smi"),
          standIn("nvidia-smi").replace("value=Enabled", "value=Disabled"));
      AnsibleToolsTest.executable(
          roots.get("node-b").resolve("usr/local/bin/nvidia-smi"),
          standIn("nvidia-smi")
              .replace("value=\"Completed, Success\"", "value=\"In Progress, N/A\""));
      // Each pool's first node has an mpirun; the small pool's prints its own figure.
      Path bigMpirun = roots.get("node-a").resolve("opt/amazon/openmpi/bin/mpirun");
      AnsibleToolsTest.executable(bigMpirun, standIn("mpirun"));
      Path smallMpirun = roots.get("node-c").resolve("opt/amazon/openmpi/bin/mpirun");
      AnsibleToolsTest.executable(
          smallMpirun, standIn("mpirun").replace("120.58  231.11", "12.25   24.50"));
      // The small pool's log shows no GPUDirect RDMA, which aws-ofi-nccl does not require on
      // g6.12xlarge (no entry in its platform table); the p5.48xlarge pool's does.
      Files.writeString(smallMpirun.resolveSibling("gdr"), "0\n");

      StringBuilder inv = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
      roots.forEach(
          (host, root) ->
              inv.append("        ")
                  .append(host)
                  .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
                  .append(root)
                  .append("\", gpugen_live_host: true}\n"));
      inv.append("    pool_h100:\n      hosts: {node-a: {}, node-b: {}}\n")
          .append("      vars: {validation_nccl_min_multi_node_bus_bandwidth_gbps: 200}\n")
          .append("    pool_h100_small:\n      hosts: {node-c: {}, node-d: {}}\n")
          .append("      vars: {validation_nccl_min_multi_node_bus_bandwidth_gbps: 30}\n");
      RealTools.Result r =
          run(dir, Files.writeString(tmp.resolve("inventory.yml"), inv.toString()));

      List<String> big = Files.readAllLines(bigMpirun.resolveSibling("mpirun.args"));
      assertEquals("16", big.get(big.indexOf("-np") + 1), big::toString);
      assertEquals("8", big.get(big.indexOf("-N") + 1), big::toString);
      assertEquals(
          roots.get("node-a") + ":8," + roots.get("node-b") + ":8",
          big.get(big.indexOf("--host") + 1),
          big::toString);
      List<String> small = Files.readAllLines(smallMpirun.resolveSibling("mpirun.args"));
      assertEquals("8", small.get(small.indexOf("-np") + 1), small::toString);
      assertEquals("4", small.get(small.indexOf("-N") + 1), small::toString);
      assertEquals(
          roots.get("node-c") + ":4," + roots.get("node-d") + ":4",
          small.get(small.indexOf("--host") + 1),
          small::toString);

      for (String host : List.of("node-a", "node-b")) {
        JsonNode multi = report(dir, host).get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("pass", multi.get("status").asText(), host + ": " + multi);
        assertEquals(231.11, multi.get("busbw_gbps").asDouble(), 1e-9, host + ": " + multi);
        assertEquals(
            "busbw >= 200 GB/s over 2 nodes, GPUDirect RDMA on NET/Libfabric (GDRDMA)",
            multi.get("expected").asText());
      }
      for (String host : List.of("node-c", "node-d")) {
        JsonNode multi = report(dir, host).get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("fail", multi.get("status").asText(), host + ": " + multi);
        assertEquals(24.5, multi.get("busbw_gbps").asDouble(), 1e-9, host + ": " + multi);
        assertEquals("busbw >= 30 GB/s over 2 nodes", multi.get("expected").asText());
        assertFalse(multi.get("measured").asText().contains("GDRDMA"), multi::toString);
      }
      assertNotEquals(0, r.exitCode(), r.output());
      for (String host : List.of("node-a", "node-b", "node-c", "node-d")) {
        assertEquals(1, RealTools.recap(r.output(), host).get("failed"), r.output());
      }

      JsonNode a = report(dir, "node-a").get("checks");
      assertEquals(List.of("persistence_mode"), failed(a), a::toString);
      assertTrue(
          r.output()
              .contains(
                  "persistence_mode: measured Disabled, Disabled, Disabled, Disabled, Disabled,"
                      + " Disabled, Disabled, Disabled, expected Enabled on every GPU."),
          r.output());
      assertEquals("pass", a.get("fabric_manager").get("status").asText(), a::toString);

      JsonNode b = report(dir, "node-b").get("checks");
      assertEquals(List.of("fabric_manager"), failed(b), b::toString);
      JsonNode fabric = b.get("fabric_manager");
      assertEquals("In Progress, N/A", fabric.get("measured").asText(), fabric::toString);
      assertEquals("Completed, Success on every GPU", fabric.get("expected").asText());
      assertTrue(
          r.output()
              .contains(
                  "fabric_manager: measured In Progress, N/A, expected Completed, Success on every"
                      + " GPU."),
          r.output());
      assertEquals("pass", b.get("persistence_mode").get("status").asText(), b::toString);
    } finally {
      for (Path root : roots.values()) {
        TestRoot.delete(root);
      }
    }
  }

  private static String standIn(String name) throws Exception {
    return Files.readString(Golden.repo().resolve("src/test/resources/ansible-stand-ins/" + name));
  }

  private Path inventory(Map<String, Path> roots) throws Exception {
    // YAML: the rendered ansible.cfg enables the yaml inventory plugin, not ini.
    StringBuilder b = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
    roots.forEach(
        (host, root) ->
            b.append("        ")
                .append(host)
                .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
                .append(root)
                .append("\", gpugen_live_host: true}\n"));
    b.append("    pool_h100:\n      hosts:\n");
    roots.keySet().forEach(h -> b.append("        ").append(h).append(":\n"));
    return Files.writeString(tmp.resolve("inventory.yml"), b.toString());
  }

  private static RealTools.Result run(Path dir, Path inventory, String... extra) throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "--skip-tags",
                "network,reboot,kubernetes,helm"));
    cmd.addAll(List.of(extra));
    cmd.add("05-validation.yml");
    return RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
  }

  /** The hosts of the run's PLAY RECAP. */
  private static List<String> reportedHosts(RealTools.Result r) {
    String recap = r.output().substring(r.output().lastIndexOf("PLAY RECAP"));
    return java.util.regex.Pattern.compile("^(\\S+) +: ok=", java.util.regex.Pattern.MULTILINE)
        .matcher(recap)
        .results()
        .map(m -> m.group(1))
        .toList();
  }
}
