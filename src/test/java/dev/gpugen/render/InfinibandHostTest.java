package dev.gpugen.render;

import static dev.gpugen.render.ValidationReports.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Golden;
import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The InfiniBand path of the static-infiniband golden, run for real against debootstrap roots
 * through the chroot connection, with the stand-ins of src/test/resources/ib-stand-ins: play 00's
 * preflight fails a host whose HCAs, PCIe ACS or IOMMU are wrong (naming each) and passes a good
 * one, and host tuning writes its units and sysctl; play 04 pins NCCL_SOCKET_IFNAME to the
 * interface found on each host; play 05's multi-node run keeps Open MPI on the bootstrap network
 * and fails without GPUDirect RDMA in NCCL's log (both cases in one run, as two multi-node groups).
 */
@ChrootTest
class InfinibandHostTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);
  private static final Path STAND_INS = Golden.repo().resolve("src/test/resources/ib-stand-ins");

  @TempDir Path tmp;

  @BeforeAll
  static void tools() {
    for (String tool : List.of("ansible-playbook", "debootstrap", "chroot", "ssh-keygen")) {
      RenderedCase.requireTool(tool);
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void preflightFailsABadHostWithEverythingWrongAndTuningIsWritten() throws Exception {
    Path dir = RenderedCase.render("static-infiniband", tmp.resolve("render")).ansible();
    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      Path good = TestRoot.fresh(tmp.resolve("hgx-01"));
      roots.put("hgx-01", good);
      hca(good, 8, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "0x1");
      iommu(good, "identity");
      AnsibleToolsTest.executable(good.resolve("usr/bin/lspci"), lspci("lspci-hgx.txt"));

      Path bad = TestRoot.fresh(tmp.resolve("hgx-02"));
      roots.put("hgx-02", bad);
      hca(bad, 8, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "0x1");
      // One port down, one trained at HDR, one fabric without a subnet manager on another port.
      port(bad, "mlx5_3", "1: DOWN", "3: Disabled", "InfiniBand", "400 Gb/sec (4X NDR)", "0x1");
      port(bad, "mlx5_5", "4: ACTIVE", "5: LinkUp", "InfiniBand", "200 Gb/sec (4X HDR)", "0x1");
      port(bad, "mlx5_6", "4: ACTIVE", "5: LinkUp", "InfiniBand", "400 Gb/sec (4X NDR)", "0x0");
      iommu(bad, "DMA-FQ");
      AnsibleToolsTest.executable(bad.resolve("usr/bin/lspci"), lspci("lspci-acs.txt"));

      RealTools.Result r =
          play(
              dir,
              inventory(roots, Map.of(), Map.of()),
              "00-prerequisites.yml",
              "--tags",
              "fabric_preflight,host_tuning");
      assertNotEquals(0, r.exitCode(), r.output());
      assertEquals(0, RealTools.recap(r.output(), "hgx-01").get("failed"), r.output());
      assertEquals(1, RealTools.recap(r.output(), "hgx-02").get("failed"), r.output());
      for (String problem :
          List.of(
              "hgx-02 is not ready for GPUDirect RDMA over InfiniBand",
              "mlx5_3 port 1: state DOWN (not ACTIVE), physical state Disabled (not LinkUp)",
              "mlx5_5 port 1: rate 200 Gb/sec (4X HDR) (expected 400 Gb/sec)",
              "mlx5_6 port 1: no subnet manager (sm_lid 0x0)",
              "5 InfiniBand HCA port(s) Active at 400 Gb/sec, expected 8",
              "PCIe ACS is on at switch downstream port 0000:16:02.0",
              "above 0000:18:00.0, 0000:19:00.0",
              "the IOMMU translates DMA of 0000:18:00.0, 0000:19:00.0 (group 17, type DMA-FQ)")) {
        assertTrue(r.output().contains(problem), problem + "\n" + r.output());
      }
      // The NVMe root port's ACS is not on a GPU or HCA path: not reported on the good host.
      assertFalse(r.output().contains("0000:40:00.0"), r.output());
      // The root port above the switch has ACS on, on both hosts (the kernel's default on root
      // ports): only a switch downstream port's ACS sends GPU-HCA traffic to the root complex, so
      // it fails neither host.
      assertFalse(r.output().contains("0000:14:01.0"), r.output());
      // The failed host stopped before tuning; the good one has its units and sysctl.
      assertFalse(Files.exists(bad.resolve("etc/systemd/system/gpugen-cpu-governor.service")));
      String governor =
          Files.readString(good.resolve("etc/systemd/system/gpugen-cpu-governor.service"));
      assertTrue(governor.contains("echo performance > \"$$g\""), governor);
      assertTrue(
          Files.isSymbolicLink(
              good.resolve(
                  "etc/systemd/system/multi-user.target.wants/gpugen-cpu-governor.service")));
      assertEquals(
          "vm.nr_hugepages=1024\n",
          Files.readString(good.resolve("etc/sysctl.d/91-gpugen-hugepages.conf")));
      String clocks =
          Files.readString(good.resolve("etc/systemd/system/gpugen-gpu-clocks.service"));
      assertTrue(
          clocks.contains("ExecStart=/usr/bin/nvidia-smi --applications-clocks=2619,1980\n"),
          clocks);
      assertTrue(clocks.contains("After=nvidia-persistenced.service\n"), clocks);
      assertTrue(
          Files.isSymbolicLink(
              good.resolve(
                  "etc/systemd/system/multi-user.target.wants/gpugen-gpu-clocks.service")));
      // Play 01 does not reboot for a first driver: nvidia-persistenced, which it starts once the
      // driver is loaded, pulls the clocks unit in (and at every boot after).
      assertTrue(
          Files.isSymbolicLink(
              good.resolve(
                  "etc/systemd/system/nvidia-persistenced.service.wants/gpugen-gpu-clocks.service")),
          "nvidia-persistenced does not want the clocks unit");

      // The good host alone, again: nothing changes.
      RealTools.Result again =
          play(
              dir,
              inventory(Map.of("hgx-01", good), Map.of(), Map.of()),
              "00-prerequisites.yml",
              "--tags",
              "fabric_preflight,host_tuning");
      RenderedCase.assertExit(0, again);
      assertEquals(0, RealTools.recap(again.output(), "hgx-01").get("changed"), again.output());
    } finally {
      for (Path root : roots.values()) {
        TestRoot.delete(root);
      }
    }
  }

  @Test
  @Timeout(value = 50, unit = TimeUnit.MINUTES)
  void theBootstrapInterfaceIsPinnedAndTheMultiNodeRunNeedsGpuDirectRdma() throws Exception {
    Path dir = RenderedCase.render("static-infiniband", tmp.resolve("render")).ansible();
    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      for (String host : List.of("hgx-01", "hgx-02", "hgx-03", "hgx-04")) {
        Path root = TestRoot.fresh(tmp.resolve(host));
        roots.put(host, root);
        AnsibleToolsTest.installStandIns(root, "391.35", 0);
        Path perf = root.resolve("var/cache/gpugen/validation/nccl-tests/build/all_reduce_perf");
        AnsibleToolsTest.executable(
            perf,
            Files.readString(perf)
                .replace(
                    "stand-in-node:41234:41234 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.13.2\n",
                    "")
                .replace("Using network Libfabric", "Using network IB"));
        // hgx-03, the other group's leader, has a bond0 address of its own, so each leader's Open
        // MPI arguments show which node settled them.
        AnsibleToolsTest.executable(
            root.resolve("usr/local/bin/ip"),
            Files.readString(STAND_INS.resolve("ip"))
                .replace("10.50.0.11", host.equals("hgx-03") ? "10.50.0.13" : "10.50.0.11"));
        Files.createDirectories(root.resolve("etc/ssh"));
        Files.writeString(
            root.resolve("etc/ssh/ssh_host_ed25519_key.pub"),
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
                + host.toUpperCase().replace("-", "")
                + " root@"
                + host
                + "\n");
      }
      // hgx-01 and hgx-03 lead their groups' multi-node runs: with and without GPUDirect RDMA (no
      // /GDRDMA on NCCL's NET/IB connections).
      Path mpirun = roots.get("hgx-01").resolve("usr/lib/x86_64-linux-gnu/openmpi/bin/mpirun");
      Path noGdrMpirun = roots.get("hgx-03").resolve("usr/lib/x86_64-linux-gnu/openmpi/bin/mpirun");
      for (Path m : List.of(mpirun, noGdrMpirun)) {
        AnsibleToolsTest.executable(
            m, Files.readString(STAND_INS.resolve("mpirun-ib")).replace("BUSBW", "330.12"));
      }
      Files.writeString(mpirun.resolveSibling("gdr"), "1\n");
      Files.writeString(noGdrMpirun.resolveSibling("gdr"), "0\n");
      // hgx-01 and hgx-03 are reached at their bond0 addresses; hgx-02's address is on no
      // interface: its default route's interface (eno1) is the one found.
      Map<String, String> address = Map.of("hgx-01", "10.50.0.11", "hgx-03", "10.50.0.13");
      Map<String, Path> pinned = new LinkedHashMap<>(roots);
      pinned.keySet().retainAll(List.of("hgx-01", "hgx-02"));

      RealTools.Result four =
          play(
              dir,
              inventory(pinned, address, Map.of()),
              "04-network-tuning.yml",
              "--skip-tags",
              "network,hardware");
      RenderedCase.assertExit(0, four);
      assertTrue(
          Files.readString(roots.get("hgx-01").resolve("etc/nccl.conf"))
              .contains("NCCL_SOCKET_IFNAME==bond0\n"));
      assertTrue(
          Files.readString(roots.get("hgx-02").resolve("etc/nccl.conf"))
              .contains("NCCL_SOCKET_IFNAME==eno1\n"));
      JsonNode fact =
          new ObjectMapper()
              .readTree(roots.get("hgx-01").resolve("etc/ansible/facts.d/gpugen.fact").toFile());
      assertEquals("bond0", fact.get("bootstrap_interface").asText(), fact::toString);

      // Both cases in one run of play 05, as two multi-node groups (validation_nccl_group, the
      // variable the role groups hosts by), each led by its first host. Play 05 reads nothing play
      // 04 writes (validation finds the bootstrap interface itself), so the pair without play 04
      // is judged as it would be after it.
      Map<String, String> group = Map.of("hgx-03", "h100@no-gdr", "hgx-04", "h100@no-gdr");
      RealTools.Result five =
          play(
              dir,
              inventory(roots, address, group),
              "05-validation.yml",
              "--skip-tags",
              "network,reboot,kubernetes,helm");
      assertNotEquals(0, five.exitCode(), five.output());
      // Without GPUDirect RDMA both nodes of the group fail.
      for (String host : List.of("hgx-03", "hgx-04")) {
        assertEquals(1, RealTools.recap(five.output(), host).get("failed"), five.output());
        JsonNode multi = report(dir, host).get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("fail", multi.get("status").asText(), host + ": " + multi);
        assertTrue(
            multi.get("measured").asText().contains("0 of 4 NET/IB connections GDRDMA"),
            multi::toString);
        assertEquals(
            "busbw >= 296 GB/s over 2 nodes, GPUDirect RDMA on NET/IB (GDRDMA)",
            multi.get("expected").asText());
        assertEquals(
            "pass", report(dir, host).get("checks").get("nccl_all_reduce").get("status").asText());
      }
      // With it, both pass at 330 GB/s, above the pool's 296.
      for (String host : List.of("hgx-01", "hgx-02")) {
        Map<String, Integer> recap = RealTools.recap(five.output(), host);
        assertEquals(0, recap.get("failed") + recap.get("unreachable"), five.output());
        JsonNode multi = report(dir, host).get("checks").get("nccl_all_reduce_multi_node");
        assertEquals("pass", multi.get("status").asText(), host + ": " + multi);
        assertTrue(
            multi.get("measured").asText().contains("4 of 4 NET/IB connections GDRDMA"),
            multi::toString);
      }
      // Each leader runs its own group's two nodes, over the network of its own bond0 address.
      Map<String, List<String>> groups =
          Map.of("hgx-01", List.of("hgx-01", "hgx-02"), "hgx-03", List.of("hgx-03", "hgx-04"));
      for (var leader : groups.entrySet()) {
        Path m = roots.get(leader.getKey()).resolve("usr/lib/x86_64-linux-gnu/openmpi/bin/mpirun");
        List<String> args = Files.readAllLines(m.resolveSibling("mpirun.args"));
        String network = address.get(leader.getKey()) + "/24";
        assertEquals(network, args.get(args.indexOf("btl_tcp_if_include") + 1), args::toString);
        assertEquals(network, args.get(args.indexOf("oob_tcp_if_include") + 1), args::toString);
        assertFalse(args.contains("btl_tcp_if_exclude"), args::toString);
        assertEquals(
            leader.getValue().stream().map(h -> roots.get(h) + ":8").toList(),
            List.of(args.get(args.indexOf("--host") + 1).split(",")),
            args::toString);
      }
    } finally {
      for (Path root : roots.values()) {
        TestRoot.delete(root);
      }
    }
  }

  /** {@code count} HCAs mlx5_0.. with one port each, all alike. */
  private static void hca(
      Path root, int count, String state, String phys, String rate, String smLid) throws Exception {
    for (int i = 0; i < count; i++) {
      port(root, "mlx5_" + i, state, phys, "InfiniBand", rate, smLid);
    }
  }

  private static void port(
      Path root, String dev, String state, String phys, String layer, String rate, String smLid)
      throws Exception {
    Path p = Files.createDirectories(root.resolve("sys/class/infiniband/" + dev + "/ports/1"));
    Files.writeString(p.resolve("state"), state + "\n");
    Files.writeString(p.resolve("phys_state"), phys + "\n");
    Files.writeString(p.resolve("link_layer"), layer + "\n");
    Files.writeString(p.resolve("rate"), rate + "\n");
    Files.writeString(p.resolve("sm_lid"), smLid + "\n");
  }

  /** The IOMMU group of the GPU and the HCA below the PCIe switch, of {@code type}. */
  private static void iommu(Path root, String type) throws Exception {
    Path g = Files.createDirectories(root.resolve("sys/kernel/iommu_groups/17/devices"));
    Files.writeString(g.resolveSibling("type"), type + "\n");
    Files.createDirectories(g.resolve("0000:18:00.0"));
    Files.createDirectories(g.resolve("0000:19:00.0"));
    Files.createDirectories(root.resolve("proc"));
    Files.writeString(
        root.resolve("proc/cmdline"), "BOOT_IMAGE=/vmlinuz-6.8.0-generic root=/dev/sda1 ro\n");
  }

  /** An lspci stand-in printing the fixture for {@code -D -nn -vvv}. */
  private static String lspci(String fixture) throws Exception {
    return "#!/bin/sh\n# Stand-in for pciutils' lspci (test only).\n"
        + "[ \"$*\" = \"-D -nn -vvv\" ] || { echo \"lspci stand-in: $*\" >&2; exit 1; }\n"
        + "cat <<'OUT'\n"
        + Files.readString(STAND_INS.resolve(fixture))
        + "OUT\n";
  }

  /** {@code group}: a host's multi-node group (validation_nccl_group), if not its pool's. */
  private Path inventory(
      Map<String, Path> roots, Map<String, String> address, Map<String, String> group)
      throws Exception {
    StringBuilder b = new StringBuilder("all:\n  children:\n    gpu_nodes:\n      hosts:\n");
    roots.forEach(
        (host, root) -> {
          b.append("        ")
              .append(host)
              .append(": {ansible_connection: community.general.chroot, ansible_host: \"")
              .append(root)
              .append("\", gpugen_live_host: ")
              .append(!address.isEmpty());
          if (address.containsKey(host)) {
            b.append(", nccl_network_host_address: ")
                .append(address.get(host))
                .append(", validation_host_address: ")
                .append(address.get(host));
          }
          if (group.containsKey(host)) {
            b.append(", validation_nccl_group: \"").append(group.get(host)).append('"');
          }
          b.append("}\n");
        });
    b.append("    pool_h100:\n      hosts:\n");
    roots.keySet().forEach(h -> b.append("        ").append(h).append(":\n"));
    return Files.writeString(
        tmp.resolve("inventory-" + String.join("-", roots.keySet()) + ".yml"), b.toString());
  }

  private static RealTools.Result play(Path dir, Path inventory, String playbook, String... args)
      throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString()));
    cmd.addAll(List.of(args));
    cmd.add(playbook);
    return RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
  }
}
