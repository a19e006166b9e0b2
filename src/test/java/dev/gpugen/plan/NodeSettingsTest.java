package dev.gpugen.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The node settings Terraform's replacement guard compares: every entry of var.pools has them,
 * EKS's system pool too, and a change from the accepted ones is named per pool.
 */
class NodeSettingsTest {
  private static final String EKS;

  static {
    try {
      EKS =
          Files.readString(Path.of("src/test/resources/golden/aws-eks-pull/spec.yaml"))
              .replace(
                  "  version: \"1.32\"\n",
                  "  version: \"1.32\"\n  systemPool: {enabled: true, instanceType: m6i.xlarge}\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void theSystemPoolHasSettingsLikeEveryPool() {
    SortedMap<String, SortedMap<String, Object>> s = NodeSettings.of(TestSpecs.plan(parse(EKS)));
    assertEquals(List.of("gpugen-system", "h100", "l4-infer"), List.copyOf(s.keySet()));
    assertEquals(s.get("h100").keySet(), s.get("gpugen-system").keySet());
    SortedMap<String, Object> sys = s.get("gpugen-system");
    assertEquals("m6i.xlarge", sys.get("instance_type"));
    assertEquals("on-demand", sys.get("market"));
    assertEquals("eksfleet-gpugen-system-", sys.get("launch_template_name_prefix"));
    assertEquals("1.32", sys.get("kubernetes_version"));
  }

  @Test
  void aSystemPoolTypeChangeIsRefusedUntilAllowed() {
    ClusterPlan before = TestSpecs.plan(parse(EKS));
    SortedMap<String, String> manifest = NodeSettings.record(NodeSettings.of(before));
    ClusterPlan after =
        TestSpecs.plan(
            parse(EKS.replace("instanceType: m6i.xlarge}", "instanceType: m6i.2xlarge}")));

    SortedMap<String, SortedMap<String, Object>> kept =
        NodeSettings.accepted(manifest, after, false);
    assertEquals(
        Map.of("gpugen-system", List.of("instance_type")), NodeSettings.refused(kept, after));
    assertEquals(
        Map.of(), NodeSettings.refused(NodeSettings.accepted(manifest, after, true), after));
  }

  @Test
  void aKubernetesMinorChangesEveryPoolsImageTheSystemPoolsToo() {
    ClusterPlan before = TestSpecs.plan(parse(EKS));
    SortedMap<String, String> manifest = NodeSettings.record(NodeSettings.of(before));
    ClusterPlan after =
        TestSpecs.plan(parse(EKS.replace("version: \"1.32\"", "version: \"1.33\"")));
    SortedMap<String, List<String>> refused =
        NodeSettings.refused(NodeSettings.accepted(manifest, after, false), after);
    Map<String, List<String>> want = new TreeMap<>();
    for (String pool : List.of("gpugen-system", "h100", "l4-infer")) {
      want.put(pool, List.of("kubernetes_version"));
    }
    assertEquals(want, refused);
  }

  @Test
  void onlyAnAllowReplaceAcceptsSettingsForTerraformAndTheFolderKeepsThem() {
    ClusterPlan before = TestSpecs.plan(parse(EKS));
    // A fresh folder (no manifest) accepts nothing: Terraform compares with its state alone.
    assertEquals(Map.of(), NodeSettings.allowed(new TreeMap<>(), before, false));
    // A first render's manifest records no allowance, so the next render accepts nothing either.
    SortedMap<String, String> first = new TreeMap<>(NodeSettings.record(NodeSettings.of(before)));
    first.putAll(NodeSettings.recordAllowed(NodeSettings.allowed(new TreeMap<>(), before, false)));
    ClusterPlan after =
        TestSpecs.plan(
            parse(EKS.replace("instanceType: m6i.xlarge}", "instanceType: m6i.2xlarge}")));
    assertEquals(Map.of(), NodeSettings.allowed(first, after, false));
    // --allow-replace accepts every pool's current settings, and later renders keep them.
    SortedMap<String, SortedMap<String, Object>> allowed = NodeSettings.allowed(first, after, true);
    assertEquals(NodeSettings.of(after), allowed);
    SortedMap<String, String> second = NodeSettings.recordAllowed(allowed);
    // (compared as the JSON the tfvars carry: the manifest reads numbers back as longs)
    assertEquals(
        dev.gpugen.json.Json.write(allowed),
        dev.gpugen.json.Json.write(NodeSettings.allowed(second, before, false)));
    // A garbled record accepts nothing for its pool.
    second.put("allowed.pools[h100]", "{\"instance_type\": 1}");
    assertEquals(
        List.of("gpugen-system", "l4-infer"),
        List.copyOf(NodeSettings.allowed(second, before, false).keySet()));
  }

  @Test
  void theRecordsGpugenUpReplacesAreEveryPoolsIncludingTheSystemPool() {
    assertEquals(
        List.of(
            "terraform_data.recorded_node_settings[\"gpugen-system\"]",
            "terraform_data.recorded_node_settings[\"h100\"]",
            "terraform_data.recorded_node_settings[\"l4-infer\"]"),
        NodeSettings.recordAddresses(TestSpecs.plan(parse(EKS))));
  }

  @Test
  void aPlainUpReRecordsThePoolsAnEarlierAllowReplaceAcceptedWhileTheirSettingsStayThose() {
    ClusterPlan before = TestSpecs.plan(parse(EKS));
    ClusterPlan bigger =
        TestSpecs.plan(
            parse(EKS.replace("instanceType: m6i.xlarge}", "instanceType: m6i.2xlarge}")));
    // render --allow-replace into the folder: its manifest keeps what it accepted.
    SortedMap<String, String> manifest =
        NodeSettings.recordAllowed(NodeSettings.allowed(new TreeMap<>(), bigger, true));
    // A plain up after it: every pool still as accepted, so every record is re-recorded.
    assertEquals(
        NodeSettings.recordAddresses(bigger),
        NodeSettings.recordAddresses(bigger, NodeSettings.allowed(manifest, bigger, false)));
    // The system pool put back since: its record stays, so the guard still compares with it.
    assertEquals(
        List.of(
            "terraform_data.recorded_node_settings[\"h100\"]",
            "terraform_data.recorded_node_settings[\"l4-infer\"]"),
        NodeSettings.recordAddresses(before, NodeSettings.allowed(manifest, before, false)));
    // Nothing allowed in the folder: nothing re-recorded.
    assertEquals(
        List.of(),
        NodeSettings.recordAddresses(before, NodeSettings.allowed(new TreeMap<>(), before, false)));
  }

  @Test
  void aRenamedPoolFollowsItsOldNameAndOneWithNothingRecordedThereTakesTheCurrentSettings() {
    ClusterPlan before = TestSpecs.plan(parse(EKS));
    String renamedSpec = EKS.replace("- name: h100", "- name: h200\n    renamedFrom: h100");
    ClusterPlan renamed = TestSpecs.plan(parse(renamedSpec));
    SortedMap<String, String> manifest =
        NodeSettings.recordAllowed(NodeSettings.allowed(new TreeMap<>(), before, true));
    assertEquals(
        dev.gpugen.json.Json.write(NodeSettings.of(before).get("h100")),
        dev.gpugen.json.Json.write(NodeSettings.allowed(manifest, renamed, false).get("h200")));
    // Nothing under the old name: nothing allowed for it, and the accepted are the current.
    assertEquals(Map.of(), NodeSettings.allowed(new TreeMap<>(), renamed, false));
    assertEquals(
        NodeSettings.of(renamed).get("h200"),
        NodeSettings.accepted(new TreeMap<>(), renamed, false).get("h200"));
  }

  private static dev.gpugen.spec.ClusterSpec parse(String yaml) {
    return TestSpecs.parse(yaml);
  }
}
