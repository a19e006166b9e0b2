package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Golden;
import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.drift.Drift;
import dev.gpugen.drift.Finding;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Severity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bare metal on InfiniBand as HPC teams run it, read from the render: each pool's own fabric, the
 * NVSwitch board the GPU model names, the multi-node threshold and GPUDirect RDMA requirement of
 * InfiniBand/RoCE pools, the RDMA shared device plugin, the bootstrap interface in nccl.conf and in
 * drift. The chroot runs of the same roles are in InfinibandHostTest.
 */
class InfinibandRenderTest {
  private static final Path EXAMPLE =
      Golden.repo().resolve("examples/static-baremetal/cluster.yaml");
  private static final Path IB =
      Golden.repo().resolve("src/test/resources/golden/static-infiniband/spec.yaml");

  @TempDir Path tmp;

  @Test
  void eachPoolHasItsOwnFabricAndInheritsTheClustersOtherwise() throws Exception {
    String example = Files.readString(EXAMPLE);
    Map<String, String> own = ansible(example);
    assertTrue(
        own.get("group_vars/pool_l4.yml").contains("nccl_network_fabric: !unsafe \"tcp\"\n"));
    assertTrue(own.get("group_vars/pool_l4.yml").contains("validation_fabric: !unsafe \"tcp\"\n"));
    assertFalse(own.get("group_vars/pool_l4.yml").contains("validation_nccl_gdr_required"));
    assertTrue(
        own.get("group_vars/pool_h100.yml")
            .contains("nccl_network_fabric: !unsafe \"infiniband\"\n"));
    assertTrue(
        own.get("group_vars/pool_h100.yml").contains("validation_nccl_gdr_required: true\n"));
    // Without its own key the inference pool inherits network.fabric: infiniband.
    Map<String, String> inherited =
        ansible(
            example.replace(
                "    fabric: tcp                     # no HCA in the inference server\n", ""));
    assertTrue(
        inherited
            .get("group_vars/pool_l4.yml")
            .contains("nccl_network_fabric: !unsafe \"infiniband\"\n"));
  }

  /**
   * On AWS a pool's fabric reaches Terraform as its network interfaces: EFA on every card (efa on
   * card 0) for efa, the primary ENA interface alone (interface_type null) for tcp.
   */
  @Test
  void onAwsAPoolsFabricIsWhatItsNetworkInterfacesSay() throws Exception {
    String spec = Files.readString(Golden.repo().resolve("examples/aws-mixed/cluster.yaml"));
    Gpugen.Checked c = check(spec.replaceFirst("(?m)^(  - name: a100\\n)", "$1    fabric: tcp\n"));
    ClusterPlan plan = c.plan().orElseThrow();
    Rendered r = Rendered.of("aws-mixed", plan.spec());
    plan.pools()
        .forEach(
            p -> {
              com.fasterxml.jackson.databind.JsonNode nics =
                  r.tfvars().path("pools").path(p.name()).path("network_interfaces");
              boolean efa = p.pool().fabric() == dev.gpugen.spec.Fabric.EFA;
              assertEquals(
                  efa ? "efa" : "null", nics.path(0).path("interface_type").asText(), p.name());
              assertEquals(efa ? p.efaInterfaces() : 1, nics.size(), p.name());
            });
    assertEquals(
        1, r.tfvars().path("pools").path("a100").path("network_interfaces").size(), "a100: tcp");
    // InfiniBand is not an AWS fabric: refused at the pool's own key.
    Gpugen.Checked ib =
        check(spec.replaceFirst("(?m)^(  - name: a100\\n)", "$1    fabric: infiniband\n"));
    assertTrue(
        errors(ib).stream()
            .anyMatch(
                d ->
                    d.ruleId().equals("net-fabric-not-offered")
                        && d.message().contains("pool a100")),
        ib.diagnostics()::toString);
  }

  @Test
  void fabricManagerFollowsTheBoardTheModelNames() throws Exception {
    String base = Files.readString(EXAMPLE);
    Map<String, Boolean> want =
        Map.of(
            "{model: h100-sxm, count: 8}", true,
            "{model: h100-pcie, count: 8}", false,
            "{model: h100-nvl, count: 8}", false,
            "{model: h100, count: 8, nvswitch: false}", false,
            "{model: b200, count: 8}", true,
            "{model: a100-sxm, count: 4}", false);
    want.forEach(
        (gpu, nvswitch) -> {
          Map<String, String> files = ansible(base.replace("{model: h100-sxm, count: 8}", gpu));
          assertTrue(
              files
                  .get("group_vars/pool_h100.yml")
                  .contains("nvidia_driver_fabricmanager: " + nvswitch + "\n"),
              gpu);
        });
    // Eight H100s are HGX or PCIe: the spec must say which.
    Gpugen.Checked plain =
        check(base.replace("{model: h100-sxm, count: 8}", "{model: h100, count: 8}"));
    assertEquals(
        List.of("drv-nvswitch-ambiguous"), errors(plain).stream().map(Diagnostic::ruleId).toList());
  }

  @Test
  void infinibandPoolsGetAMultiNodeThresholdFromTheirHcasAndGpus() throws Exception {
    ClusterPlan plan = check(Files.readString(IB)).plan().orElseThrow();
    // 8 x 400 Gb/s = 400 GB/s of HCAs, above the 370 GB/s of 8 x H100 over NVLink: 80% of 370.
    assertEquals(Optional.of(296.0), plan.pool("h100").minMultiNodeBusBandwidthGbps());
    // The spec's own threshold wins.
    assertEquals(Optional.of(300.0), plan.pool("b200").minMultiNodeBusBandwidthGbps());
    assertEquals(Optional.empty(), plan.pool("l40s").minMultiNodeBusBandwidthGbps());
    // DGX A100's eight HDR ports (200 GB/s) are below its GPUs' 230 GB/s: 80% of 200.
    ClusterPlan a100 =
        check(
                Files.readString(EXAMPLE)
                    .replace("{model: h100-sxm, count: 8}", "{model: a100-sxm, count: 8}")
                    .replace(
                        "rdma: {hcaPorts: 8, linkGbps: 400, preflight: true}",
                        "rdma: {preflight: true}"))
            .plan()
            .orElseThrow();
    assertEquals(Optional.of(160.0), a100.pool("h100").minMultiNodeBusBandwidthGbps());
    Map<String, String> files = ansible(Files.readString(IB));
    assertTrue(
        files
            .get("group_vars/pool_h100.yml")
            .contains("validation_nccl_min_multi_node_bus_bandwidth_gbps: !unsafe \"296\"\n"));
    assertFalse(files.get("group_vars/pool_l40s.yml").contains("validation_nccl_min_multi_node"));
    String tasks = files.get("roles/validation/tasks/main.yml");
    assertTrue(
        tasks.contains("validation_nccl_gdr_required | bool or validation_multi_gdr | length > 0"));
  }

  @Test
  void podsGetTheHcasThroughThePinnedRdmaSharedDevicePlugin() throws Exception {
    Map<String, String> files = ansible(Files.readString(IB));
    String tasks = files.get("roles/gpu_operator/tasks/main.yml");
    assertTrue(tasks.contains("name: rdma-shared-dp-ds"), tasks);
    assertTrue(tasks.contains("tolerations: \"{{ gpu_operator_rdma_tolerations }}\""), tasks);
    assertTrue(
        files
            .get("roles/gpu_operator/defaults/main.yml")
            .contains(
                "gpu_operator_rdma_image: nvcr.io/nvidia/mellanox/k8s-rdma-shared-dev-plugin:network-operator-v26.4.1\n"));
    assertTrue(files.get("group_vars/all.yml").contains("gpu_operator_rdma_device_plugin: true\n"));
    assertTrue(files.get("05-validation.yml").contains("role: rdma_checks"));
    assertTrue(files.containsKey("roles/rdma_checks/templates/nccl-pod.yaml.j2"));
    assertTrue(files.get("group_vars/pool_h100.yml").contains("rdma_checks_enabled: true\n"));
    assertTrue(files.get("group_vars/pool_b200.yml").contains("rdma_checks_enabled: true\n"));
    assertFalse(files.get("group_vars/pool_l40s.yml").contains("rdma_checks_enabled"));
    // No cluster, no plugin.
    Map<String, String> none =
        ansible(
            Files.readString(
                Golden.repo().resolve("src/test/resources/golden/static-baremetal/spec.yaml")));
    assertFalse(none.get("roles/gpu_operator/tasks/main.yml").contains("rdma-shared-dp-ds"));
    assertFalse(none.containsKey("roles/rdma_checks/tasks/main.yml"));
  }

  @Test
  void ncclConfPinsTheBootstrapInterfaceAndDriftKnowsIt() throws Exception {
    ClusterPlan plan = check(Files.readString(IB)).plan().orElseThrow();
    // The RoCE pool names its interface; the H100 pool's is found on each host; TCP pins nothing.
    assertTrue(plan.ncclConf(plan.pool("b200"), "eno1").contains("NCCL_SOCKET_IFNAME==bond0\n"));
    assertTrue(plan.ncclConf(plan.pool("h100"), "eno1").contains("NCCL_SOCKET_IFNAME==eno1\n"));
    assertFalse(plan.ncclConf(plan.pool("l40s"), "eno1").contains("NCCL_SOCKET_IFNAME"));
    Map<String, String> files = ansible(Files.readString(IB));
    assertTrue(
        files.get("group_vars/pool_h100.yml").contains("nccl_network_pin_socket_ifname: true\n"));
    assertTrue(
        files
            .get("group_vars/pool_b200.yml")
            .contains("nccl_network_bootstrap_interface: !unsafe \"bond0\"\n"));
    assertTrue(
        files
            .get("roles/validation/tasks/main.yml")
            .contains("'btl_tcp_if_include', validation_mpi_network"));
    assertTrue(
        files
            .get("roles/validation/tasks/main.yml")
            .contains("'oob_tcp_if_include', validation_mpi_network"));

    // A node of the H100 pool whose play 04 found eno1: in sync; a hand edit to eth0 is drift.
    String conf = plan.ncclConf(plan.pool("h100"), "eno1");
    Path facts = Files.createDirectories(tmp.resolve("facts"));
    Files.writeString(facts.resolve("hgx-01"), facts("eno1", conf, plan.fingerprint()));
    assertEquals(List.of(), Drift.nodes(plan, facts));
    Files.writeString(
        facts.resolve("hgx-01"),
        facts("eno1", conf.replace("==eno1", "==eth0"), plan.fingerprint()));
    List<Finding> drift = Drift.nodes(plan, facts);
    assertEquals(1, drift.size(), drift::toString);
    assertTrue(
        drift
            .get(0)
            .actual()
            .contains("NCCL_SOCKET_IFNAME is =eth0 on the node, =eno1 in the spec"),
        drift::toString);
  }

  /** What `ansible -m setup -a filter=ansible_local --tree` writes for a node of pool h100. */
  private static String facts(String iface, String conf, String fingerprint) {
    Map<String, String> env = new TreeMap<>();
    conf.lines()
        .forEach(l -> env.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    StringBuilder envJson = new StringBuilder();
    env.forEach(
        (k, v) ->
            envJson
                .append(envJson.length() == 0 ? "" : ",")
                .append('"')
                .append(k)
                .append("\":\"")
                .append(v)
                .append('"'));
    String sha = dev.gpugen.spec.Sha256.hex(conf);
    return "{\"ansible_facts\":{\"ansible_local\":{"
        + "\"gpugen\":{\"pool\":\"h100\",\"cluster\":\"hpc\",\"driver\":\"580.95.05\",\"cuda\":\"12.8\","
        + "\"container_toolkit\":\"1.17.8\",\"gpugen_spec_sha256\":\""
        + fingerprint
        + "\","
        + "\"nccl_env_sha256\":\""
        + dev.gpugen.spec.Sha256.hex(conf.replace("==eth0", "==eno1"))
        + "\","
        + "\"bootstrap_interface\":\""
        + iface
        + "\"},"
        + "\"gpugen_nccl\":{\"nccl_env_sha256\":\""
        + sha
        + "\",\"env\":{"
        + envJson
        + "}}}}}";
  }

  private static Gpugen.Checked check(String yaml) {
    return TestSpecs.gpugen()
        .check("spec.yaml", yaml.getBytes(StandardCharsets.UTF_8), Optional.empty(), Set.of());
  }

  private static List<Diagnostic> errors(Gpugen.Checked c) {
    return c.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).toList();
  }

  /** The rendered ansible/ files of a spec that must validate, by path below ansible/. */
  private static Map<String, String> ansible(String yaml) {
    Gpugen.Checked c = check(yaml);
    assertEquals(List.of(), errors(c), "the spec must validate");
    Map<String, String> out = new TreeMap<>();
    try {
      TestSpecs.gpugen()
          .render(c.plan().orElseThrow(), Templates.load(Optional.empty()), "spec.yaml")
          .files()
          .forEach(
              (path, file) -> {
                if (path.startsWith("ansible/")) {
                  out.put(
                      path.substring("ansible/".length()),
                      new String(file.content(), StandardCharsets.UTF_8));
                }
              });
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return out;
  }
}
