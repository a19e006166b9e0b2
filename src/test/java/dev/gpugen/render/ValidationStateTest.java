package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.Golden;
import dev.gpugen.plan.ValidationState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The names of play 05's verdict on the nodes have one definition ({@link ValidationState}), which
 * the role's defaults repeat; the gate reaches an EKS pool's registration taints; the GPU
 * Operator's agents tolerate the taint wherever gpugen may set it; and the keys are refused where
 * they would do nothing.
 */
class ValidationStateTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A YAML file (no custom tags) as JSON, through the YAML library gpugen ships. */
  private static JsonNode yaml(String text) {
    return JSON.valueToTree(
        new org.snakeyaml.engine.v2.api.Load(
                org.snakeyaml.engine.v2.api.LoadSettings.builder().build())
            .loadFromString(text));
  }

  @TempDir Path tmp;

  @Test
  void theRoleDefaultsNameWhatThePlanDefines() throws Exception {
    JsonNode d =
        yaml(
            Files.readString(
                Golden.repo()
                    .resolve("templates/ansible/roles/validation_scheduling/defaults/main.yml")));
    assertEquals(ValidationState.TAINT_KEY, d.path("validation_scheduling_taint_key").asText());
    assertEquals(ValidationState.EFFECT, d.path("validation_scheduling_taint_effect").asText());
    assertEquals(
        ValidationState.RESULT_LABEL, d.path("validation_scheduling_result_label").asText());
    assertEquals(ValidationState.TIME_LABEL, d.path("validation_scheduling_time_label").asText());
    assertEquals(
        ValidationState.OUTLIER_LABEL, d.path("validation_scheduling_outlier_label").asText());
    assertEquals(
        ValidationState.FAILED_CHECKS_ANNOTATION,
        d.path("validation_scheduling_failed_annotation").asText());
  }

  @Test
  void aGatedEksPoolRegistersItsNodesWithThePendingTaint() throws Exception {
    String spec = Files.readString(Golden.repo().resolve("examples/aws-h100/cluster.yaml"));
    JsonNode gated = tfvars(spec.replace("validation:\n", "validation:\n  gateScheduling: true\n"));
    JsonNode plain = tfvars(spec);
    List<String> expected = new ArrayList<>(taints(plain, "/pools/h100/node_taints"));
    assertFalse(expected.toString().contains("gpugen.dev/validation"), expected::toString);
    expected.add("gpugen.dev/validation=pending:NoSchedule");
    assertEquals(expected, taints(gated, "/pools/h100/node_taints"));
  }

  @Test
  void theGpuOperatorsAgentsTolerateTheTaintWhereGpugenSetsIt() throws Exception {
    String values = allYml("examples/aws-h100/cluster.yaml");
    JsonNode v = yaml(values).path("gpu_operator_values");
    for (JsonNode list :
        List.of(
            v.path("daemonsets").path("tolerations"),
            v.path("node-feature-discovery").path("worker").path("tolerations"))) {
      assertTrue(list.toString().contains("\"key\":\"gpugen.dev/validation\""), v::toString);
    }
    // The controllers run on EKS's system pool (every GPU pool is tainted), whose nodes play 05
    // never taints: they need nothing beyond their charts' own.
    for (JsonNode list :
        List.of(
            v.path("operator").path("tolerations"),
            v.path("node-feature-discovery").path("master").path("tolerations"),
            v.path("node-feature-discovery").path("gc").path("tolerations"))) {
      assertFalse(list.toString().contains("\"key\":\"gpugen.dev/validation\""), v::toString);
    }
    // The chart's own tolerations stay: the GPU nodes' nvidia.com/gpu taint for the DaemonSets.
    assertTrue(
        v.path("daemonsets").path("tolerations").toString().contains("\"key\":\"nvidia.com/gpu\""));
    // Without kubernetes: no taint, so no toleration and no role.
    Path noK8s = tmp.resolve("no-k8s.yaml");
    String spec = Files.readString(Golden.repo().resolve("examples/aws-h100/cluster.yaml"));
    Files.writeString(noK8s, spec.substring(0, spec.indexOf("\nkubernetes:")) + "\n");
    Cli cli = Cli.run("render", noK8s.toString(), "-o", tmp.resolve("no").toString());
    assertEquals(0, cli.exit(), cli.toString());
    assertFalse(
        Files.readString(tmp.resolve("no/ansible/group_vars/all.yml"))
            .contains("gpugen.dev/validation"));
    assertFalse(Files.exists(tmp.resolve("no/ansible/roles/validation_scheduling")));
  }

  @Test
  void theKeysAreRefusedWhereTheyDoNothing() throws Exception {
    String spec = Files.readString(Golden.repo().resolve("examples/gcp-gke/cluster.yaml"));
    Path file = tmp.resolve("gke.yaml");
    Files.writeString(
        file,
        spec + "validation:\n  gateScheduling: true\n  outlierPercent: 5\n  outlierFails: true\n");
    Cli cli = Cli.run("validate", file.toString());
    for (String key : List.of("gateScheduling", "outlierPercent", "outlierFails")) {
      assertTrue(
          cli.out().contains("warning[val-setting-ignored]: validation." + key + " does nothing"),
          cli.toString());
    }
  }

  private JsonNode tfvars(String spec) throws Exception {
    Path file = Files.writeString(tmp.resolve("spec-" + spec.hashCode() + ".yaml"), spec);
    Path out = tmp.resolve("out-" + spec.hashCode());
    Cli cli = Cli.run("render", file.toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli.toString());
    return JSON.readTree(out.resolve("terraform/terraform.tfvars.json").toFile());
  }

  private String allYml(String spec) throws Exception {
    Path out = tmp.resolve("all");
    Cli cli = Cli.run("render", Golden.repo().resolve(spec).toString(), "-o", out.toString());
    assertEquals(0, cli.exit(), cli.toString());
    return Files.readString(out.resolve("ansible/group_vars/all.yml")).replaceAll("!unsafe ", "");
  }

  /** The taints at {@code pointer} (a JSON pointer) of terraform.tfvars.json. */
  private static List<String> taints(JsonNode tfvars, String pointer) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : tfvars.at(pointer)) {
      out.add(
          t.path("key").asText()
              + "="
              + t.path("value").asText()
              + ":"
              + t.path("effect").asText());
    }
    return out;
  }
}
