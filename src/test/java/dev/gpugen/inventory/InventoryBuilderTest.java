package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InventoryBuilderTest {
  private static final Pattern ANSIBLE_GROUP = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private static InventoryConfig smallFleetConfig(String... env) throws Failure {
    Map<String, String> vars = new java.util.HashMap<>(Map.of("GPUGEN_CACHE_DIR", "/nonexistent"));
    for (int i = 0; i + 1 < env.length; i += 2) {
      vars.put(env[i], env[i + 1]);
    }
    return new InventoryConfigReader(vars).read(Optional.of(StandIns.SMALL_FLEET_CONFIG));
  }

  private static List<HostFacts> smallFleet() {
    return StandIns.smallFleet().stream().map(StandIns::facts).toList();
  }

  @Test
  void smallFleetMatchesTheGoldenList() throws Exception {
    InventoryBuilder.Result result = InventoryBuilder.build(smallFleetConfig(), smallFleet());
    StandIns.assertGolden(
        StandIns.SMALL_FLEET_LIST,
        new String(InventoryJson.list(result.inventory()), StandardCharsets.UTF_8));
  }

  @Test
  void sameFleetInAnyOrderGivesTheSameBytes() throws Exception {
    List<HostFacts> shuffled = new ArrayList<>(smallFleet());
    java.util.Collections.reverse(shuffled);
    byte[] a =
        InventoryJson.list(InventoryBuilder.build(smallFleetConfig(), smallFleet()).inventory());
    byte[] b = InventoryJson.list(InventoryBuilder.build(smallFleetConfig(), shuffled).inventory());
    assertEquals(new String(a, StandardCharsets.UTF_8), new String(b, StandardCharsets.UTF_8));
  }

  @Test
  void everyGroupNameIsOneAnsibleAcceptsWithoutWarning() throws Exception {
    Inventory inventory = InventoryBuilder.build(smallFleetConfig(), smallFleet()).inventory();
    for (String group : inventory.groups().keySet()) {
      assertTrue(ANSIBLE_GROUP.matcher(group).matches(), group);
      assertFalse(inventory.hostvars().containsKey(group), "host named like group " + group);
    }
    assertTrue(inventory.groups().containsKey("pool_a100_train"));
    assertTrue(inventory.groups().containsKey("type_p4d_24xlarge"));
    assertTrue(inventory.groups().containsKey("az_us_east_1a"));
    assertEquals(List.of(), inventory.groups().get("pool_l4_batch"), "configured empty pool");
  }

  /** A kubeadm control-plane instance as kubeadm.tf tags it (Name, gpugen:role, endpoint). */
  private static Instance controlPlane(int n, String endpoint) {
    Map<String, String> tags = Fleet.tags("demo", "prod", "", "demo-prod-cp-" + n);
    tags.remove("gpugen:pool");
    tags.put(GpugenTags.ROLE, GpugenTags.ROLE_CONTROL_PLANE);
    if (endpoint != null) {
      tags.put(GpugenTags.KUBE_ENDPOINT, endpoint);
    }
    return Instance.of(String.format("i-0c%015d", n), "m7i.xlarge", "us-east-1a", tags);
  }

  /**
   * EKS's system nodes (tag gpugen:role = system, pool gpugen-system) are the cluster's, configured
   * by their join alone: the inventory leaves them out, so no play installs a driver on them.
   */
  @Test
  void systemPoolInstancesAreLeftOut() throws Exception {
    List<HostFacts> fleet = new ArrayList<>(smallFleet());
    Map<String, String> tags = Fleet.tags("demo", "prod", "gpugen-system", "demo-prod-system-0");
    tags.put(GpugenTags.ROLE, GpugenTags.ROLE_SYSTEM);
    fleet.add(StandIns.facts(Instance.of("i-0d000000000000001", "m7i.large", "us-east-1a", tags)));
    Inventory with = InventoryBuilder.build(smallFleetConfig(), fleet).inventory();
    Inventory without = InventoryBuilder.build(smallFleetConfig(), smallFleet()).inventory();
    assertEquals(without.groups(), with.groups());
    assertFalse(with.hostvars().containsKey("demo-prod-system-0"));
  }

  /**
   * Control-plane instances (tag gpugen:role = control-plane) land in kube_control_plane only:
   * never in gpu_nodes or a pool group, so the NVIDIA plays leave them alone; each carries the
   * endpoint tag as gpugen_kube_endpoint, and a hostile endpoint is dropped with a warning.
   */
  @Test
  void controlPlaneInstancesLandInTheirOwnGroupOnly() throws Exception {
    String lb = "demo-prod-kapi-0123456789abcdef.elb.us-east-1.amazonaws.com:6443";
    List<HostFacts> fleet = new ArrayList<>(smallFleet());
    fleet.add(StandIns.facts(controlPlane(0, lb)));
    fleet.add(StandIns.facts(controlPlane(1, lb)));
    fleet.add(StandIns.facts(controlPlane(2, "x.example:6443 -o ProxyCommand=id")));
    Map<String, String> roleTags = Fleet.tags("demo", "prod", "h100-infer", "gpu-with-role");
    roleTags.put(GpugenTags.ROLE, "worker");
    fleet.add(
        StandIns.facts(Instance.of("i-0c000000000000009", "p5.48xlarge", "us-east-1a", roleTags)));
    InventoryBuilder.Result result = InventoryBuilder.build(smallFleetConfig(), fleet);
    Inventory inventory = result.inventory();
    assertEquals(
        List.of("demo-prod-cp-0", "demo-prod-cp-1", "demo-prod-cp-2"),
        inventory.groups().get(InventoryBuilder.CONTROL_PLANE));
    for (String g : List.of("gpu_nodes", "pool_a100_train", "pool_h100_infer")) {
      assertTrue(
          inventory.groups().get(g).stream().noneMatch(h -> h.startsWith("demo-prod-cp-")),
          g + ": " + inventory.groups().get(g));
    }
    assertTrue(inventory.groups().get("on_demand").contains("demo-prod-cp-0"));
    assertTrue(inventory.groups().get("type_m7i_xlarge").contains("demo-prod-cp-0"));
    assertEquals(lb, inventory.varsOf("demo-prod-cp-0").get("gpugen_kube_endpoint"));
    assertFalse(inventory.varsOf("demo-prod-cp-0").containsKey("gpugen_pool"));
    assertFalse(inventory.varsOf("demo-prod-cp-2").containsKey("gpugen_kube_endpoint"));
    // Another role value is no control plane: the host stays the GPU node its pool says.
    assertTrue(inventory.groups().get("gpu_nodes").contains("gpu-with-role"));
    assertFalse(inventory.groups().get(InventoryBuilder.CONTROL_PLANE).contains("gpu-with-role"));
    String warnings = String.join("\n", result.warnings());
    assertTrue(warnings.contains("tag gpugen:kube-endpoint of i-0c000000000000002"), warnings);
    assertTrue(warnings.contains("tag gpugen:role of i-0c000000000000009"), warnings);
    String json = new String(InventoryJson.list(inventory), StandardCharsets.UTF_8);
    assertFalse(json.contains("ProxyCommand"), json);
  }

  /**
   * keyedGroups with prefix kube and a worker tagged control-plane would put the worker into
   * kube_control_plane, where play 02b runs kubeadm init: every prefix whose names can equal or
   * fall among the groups gpugen's plays and group_vars target is refused when the settings are
   * read.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "kube",
        "kube_control",
        "pool",
        "pool_h100",
        "gpu",
        "gke",
        "az",
        "type",
        "on",
        "Kube",
        "gpugen",
        "kubeadm",
        "kubeadm_api"
      })
  void aKeyedGroupPrefixThatCouldNameOneOfGpugensGroupsIsRefused(String prefix) {
    String keyed = "[{\"tag\": \"team\", \"prefix\": \"" + prefix + "\"}]";
    Failure e = assertThrows(Failure.class, () -> smallFleetConfig("GPUGEN_KEYED_GROUPS", keyed));
    assertTrue(e.getMessage().contains("keyedGroups[0].prefix"), e.getMessage());
    assertTrue(e.getMessage().contains("\"" + prefix + "\""), e.getMessage());
  }

  /**
   * A host named like one of gpugen's groups is what that group's plays would run on: a worker's
   * Name tag of kubeadm_leader (a group play 02b makes while it runs) would take kubeadm init. Such
   * a name is never a host's; the host is named by its instance id.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubeadm_leader",
        "kubeadm_api_answers",
        "kube_control_plane",
        "KUBE_control_plane",
        "gpu_nodes",
        "spot",
        "on_demand",
        "pool_h100",
        "az_us_east_1a",
        "gke_cluster"
      })
  void aNameTagThatIsOneOfGpugensGroupsNeverNamesAHost(String name) throws Exception {
    Map<String, String> tags = Fleet.tags("demo", "prod", "h100-infer", name);
    List<HostFacts> fleet = new ArrayList<>(smallFleet());
    fleet.add(
        StandIns.facts(Instance.of("i-0c00000000000000b", "p5.48xlarge", "us-east-1a", tags)));
    InventoryBuilder.Result result = InventoryBuilder.build(smallFleetConfig(), fleet);
    Inventory inventory = result.inventory();
    assertTrue(inventory.hostvars().containsKey("i-0c00000000000000b"), inventory::toString);
    assertFalse(inventory.hostvars().containsKey(name), inventory::toString);
    // Said, since the host is found under another name than its tag's.
    assertTrue(
        result.warnings().stream()
            .anyMatch(
                w ->
                    w.startsWith("named i-0c00000000000000b, not by its tag \"Name\" \"" + name)
                        && w.contains("named like gpugen's group")),
        result.warnings()::toString);
    assertTrue(
        inventory.groups().getOrDefault(InventoryBuilder.CONTROL_PLANE, List.of()).isEmpty());
  }

  /**
   * A plain host name is one that {@code ansible-playbook -l} reads as that host alone (drift
   * prints it in fix commands): none of Ansible's pattern characters, not all/ungrouped/localhost,
   * not a group of gpugen's.
   */
  @Test
  void aPlainHostNameHasNoHostPatternCharacter() {
    for (char c : ":,&!*?~[]@".toCharArray()) {
      assertTrue(InventoryBuilder.hostNameProblem("node" + c + "1").isPresent(), "node" + c + "1");
      assertTrue(InventoryBuilder.hostNameProblem(c + "node").isPresent(), c + "node");
    }
    for (String name :
        List.of(
            "all",
            "ALL",
            "ungrouped",
            "localhost",
            "*",
            "~.*",
            "gpu_nodes:kube_control_plane",
            "gpu_nodes",
            "pool_h100",
            "-node",
            ".node",
            "",
            "x".repeat(254))) {
      assertTrue(InventoryBuilder.hostNameProblem(name).isPresent(), name);
      assertFalse(InventoryBuilder.usableHostname(name), name);
    }
    for (String name :
        List.of(
            "node-1", "gpu-node-3", "h100-training-h100-0", "ip-10-0-0-5.ec2.internal", "n_1")) {
      assertEquals(Optional.empty(), InventoryBuilder.hostNameProblem(name), name);
      assertTrue(InventoryBuilder.usableHostname(name), name);
    }
  }

  @Test
  void aTagCannotPromoteAWorkerToTheControlPlane() throws Exception {
    Map<String, String> tags = Fleet.tags("demo", "prod", "h100-infer", "gpu-tagged");
    tags.put("team", "control-plane");
    List<HostFacts> fleet = new ArrayList<>(smallFleet());
    fleet.add(
        StandIns.facts(Instance.of("i-0c00000000000000a", "p5.48xlarge", "us-east-1a", tags)));
    assertThrows(
        Failure.class,
        () ->
            smallFleetConfig("GPUGEN_KEYED_GROUPS", "[{\"tag\": \"team\", \"prefix\": \"kube\"}]"));
    // A prefix of its own still groups the same tag.
    Inventory inventory =
        InventoryBuilder.build(
                smallFleetConfig(
                    "GPUGEN_KEYED_GROUPS", "[{\"tag\": \"team\", \"prefix\": \"team\"}]"),
                fleet)
            .inventory();
    assertEquals(List.of("gpu-tagged"), inventory.groups().get("team_control_plane"));
    assertTrue(
        inventory.groups().getOrDefault(InventoryBuilder.CONTROL_PLANE, List.of()).isEmpty());
  }

  @Test
  void hostileNameTagIsDroppedWithAWarningAndNeverReachesTheOutput() throws Exception {
    InventoryBuilder.Result result = InventoryBuilder.build(smallFleetConfig(), smallFleet());
    String json = new String(InventoryJson.list(result.inventory()), StandardCharsets.UTF_8);
    assertFalse(json.contains("{{"), json);
    assertFalse(json.contains("{%"), json);
    assertFalse(json.contains("lookup"), json);
    assertTrue(result.inventory().hostvars().containsKey("i-0a000000000000004"));
    assertFalse(result.inventory().varsOf("i-0a000000000000004").containsKey("gpugen_name"));
    // Its warning, and the one of the host whose Name tag is "spot" (a group of gpugen's).
    assertEquals(2, result.warnings().size(), result.warnings().toString());
    assertTrue(result.warnings().get(0).contains("i-0a000000000000004"));
    assertTrue(result.warnings().get(1).startsWith("named i-0a000000000000007, not by its tag"));
  }

  @Test
  void hostnamesFallBackToInstanceIdsWhenNamesAreNotUsable() throws Exception {
    Inventory inventory = InventoryBuilder.build(smallFleetConfig(), smallFleet()).inventory();
    assertTrue(inventory.hostvars().containsKey("demo-a100-train-0"));
    // Two instances called "twin": both by id.
    assertTrue(inventory.hostvars().containsKey("i-0a000000000000005"));
    assertTrue(inventory.hostvars().containsKey("i-0a000000000000006"));
    assertFalse(inventory.hostvars().containsKey("twin"));
    // Named like a group, named with a space, not named.
    assertTrue(inventory.hostvars().containsKey("i-0a000000000000007"));
    assertTrue(inventory.hostvars().containsKey("i-0a000000000000008"));
    assertTrue(inventory.hostvars().containsKey("i-0a000000000000009"));
    assertEquals("spot", inventory.varsOf("i-0a000000000000007").get("gpugen_name"));
  }

  @Test
  void instanceIdPreferenceNamesEveryHostByItsId() throws Exception {
    Inventory inventory =
        InventoryBuilder.build(smallFleetConfig("GPUGEN_HOSTNAME", "instance-id"), smallFleet())
            .inventory();
    assertTrue(inventory.hostvars().keySet().stream().allMatch(h -> h.startsWith("i-0a")));
    assertEquals(9, inventory.hostvars().size());
  }

  @Test
  void onlyThisClusterEnvironmentAndStateAppear() throws Exception {
    InventoryBuilder.Result result = InventoryBuilder.build(smallFleetConfig(), smallFleet());
    String json = new String(InventoryJson.list(result.inventory()), StandardCharsets.UTF_8);
    for (String foreign :
        List.of("other-cluster-node", "staging-node", "stopped-node", "pending-node")) {
      assertFalse(json.contains(foreign), foreign);
    }
    assertEquals(4, result.foreignDropped());

    Inventory withPending =
        InventoryBuilder.build(smallFleetConfig("GPUGEN_STATES", "running,pending"), smallFleet())
            .inventory();
    assertTrue(withPending.hostvars().containsKey("pending-node"));
    assertFalse(withPending.hostvars().containsKey("stopped-node"));
  }

  @Test
  void ansibleHostFollowsTheSetting() throws Exception {
    Inventory byPublic =
        InventoryBuilder.build(smallFleetConfig("GPUGEN_ANSIBLE_HOST", "public-ip"), smallFleet())
            .inventory();
    assertEquals("203.0.113.10", byPublic.varsOf("demo-h100-infer-0").get("ansible_host"));
    // No public IP: the private one.
    assertEquals(
        byPublic.varsOf("demo-a100-train-0").get("gpugen_private_ip"),
        byPublic.varsOf("demo-a100-train-0").get("ansible_host"));
    Inventory byDns =
        InventoryBuilder.build(smallFleetConfig("GPUGEN_ANSIBLE_HOST", "private-dns"), smallFleet())
            .inventory();
    assertTrue(byDns.varsOf("demo-a100-train-0").get("ansible_host").endsWith(".ec2.internal"));
  }

  @Test
  void duplicateInstancesAcrossPagesAppearOnce() throws Exception {
    List<HostFacts> twice = new ArrayList<>(smallFleet());
    twice.addAll(smallFleet());
    Inventory inventory = InventoryBuilder.build(smallFleetConfig(), twice).inventory();
    assertEquals(9, inventory.hostvars().size());
    assertEquals(9, inventory.groups().get(InventoryBuilder.ALL_NODES).size());
  }

  @Test
  void groupNamesReplaceEveryCharacterAnsibleWouldWarnAbout() {
    assertEquals("pool_a100_train", InventoryBuilder.group("pool_", "a100-train"));
    assertEquals("pool_gpu_a100_node", InventoryBuilder.group("pool_", "gpu:a100.node"));
    assertEquals("type_p5_48xlarge", InventoryBuilder.group("type_", "p5.48xlarge"));
    assertEquals("pool___", InventoryBuilder.group("pool_", "{{"));
  }

  @Test
  void templatableMeansAnyJinjaDelimiter() {
    assertTrue(InventoryBuilder.templatable("{{ x }}"));
    assertTrue(InventoryBuilder.templatable("a{%b"));
    assertTrue(InventoryBuilder.templatable("{# c"));
    assertFalse(InventoryBuilder.templatable("{ x } %} #}"));
  }

  @Test
  void emptyFleetStillHasGpuNodesAndMeta() throws Exception {
    Inventory inventory =
        InventoryBuilder.build(smallFleetConfig(), List.<HostFacts>of()).inventory();
    String json = new String(InventoryJson.list(inventory), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"_meta\": {\n    \"hostvars\": { }"), json);
    assertTrue(json.contains("\"gpu_nodes\": {\n    \"hosts\": [ ]"), json);
  }

  @Test
  void theTestFactsKeepTheSpotLifecycle() {
    Instance spot = StandIns.smallFleet().get(1);
    assertEquals(Optional.of("spot"), StandIns.facts(spot).lifecycle());
  }
}
