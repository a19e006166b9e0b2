package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.TestSpecs;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.testing.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One DCGM host engine per node: the chart values never let the GPU Operator start a second one
 * beside the engine the node already runs.
 */
class GpuOperatorValuesTest {
  private static ClusterPlan plan(String example) throws Exception {
    return TestSpecs.plan(
        TestSpecs.read(Path.of("examples", example, "cluster.yaml"), Optional.empty()));
  }

  /**
   * Where play 01 installs the driver, the host's nvidia-dcgm is the engine: no standalone engine
   * pod, and the exporter connects to the host's engine rather than embedding one.
   */
  @Test
  void theExporterUsesTheHostsEngineWherePlay01InstallsDcgm() throws Exception {
    for (String example : List.of("aws-h100", "aws-mixed", "static-baremetal")) {
      Map<String, Object> v = GpuOperatorValues.of(plan(example));
      assertEquals(Map.of("enabled", false), v.get("dcgm"), example);
      assertEquals(
          Map.of(
              "enabled",
              true,
              "env",
              List.of(Map.of("name", "DCGM_REMOTE_HOSTENGINE_INFO", "value", "localhost:5555"))),
          v.get("dcgmExporter"),
          example);
    }
  }

  /** Without the exporter there is nothing to point at the engine: no setting that does nothing. */
  @Test
  void noExporterNoRemoteEngineSetting() throws Exception {
    ClusterPlan p = plan("aws-h100");
    var spec = Records.with(p.spec(), "software.gpuOperator.dcgmExporter", false);
    Map<String, Object> v = GpuOperatorValues.of(TestSpecs.plan(spec));
    assertEquals(Map.of("enabled", false), v.get("dcgmExporter"));
    assertEquals(Map.of("enabled", false), v.get("dcgm"));
  }

  /**
   * On GKE with the operator, the operator's standalone engine is the node's one engine: the
   * exporter is wired to it by the operator, and play 05's Job uses it too.
   */
  @Test
  void onGkeTheOperatorRunsTheOneEngine() throws Exception {
    Map<String, Object> v = GpuOperatorValues.of(plan("gcp-gke"));
    assertEquals(Map.of("enabled", true), v.get("dcgm"));
    assertEquals(Map.of("enabled", true), v.get("dcgmExporter"));
  }

  /** The committed renders carry the same values: group_vars, ArgoCD and the GKE tfvars. */
  @Test
  void theCommittedRendersCarryTheOneEngineSetting() throws Exception {
    String groupVars =
        Files.readString(Path.of("roles-generated/h100-training/ansible/group_vars/all.yml"));
    assertTrue(
        groupVars.contains(
            "  dcgm:\n    enabled: false\n  dcgmExporter:\n    enabled: true\n    env:\n"
                + "      - name: !unsafe \"DCGM_REMOTE_HOSTENGINE_INFO\"\n"
                + "        value: !unsafe \"localhost:5555\"\n"),
        groupVars);
    String argo =
        Files.readString(Path.of("roles-generated/llm-train-prod/argocd/apps/gpu-operator.yaml"));
    assertTrue(argo.contains("DCGM_REMOTE_HOSTENGINE_INFO"), argo);
    String job =
        Files.readString(
            Path.of(
                "roles-generated/gke-finetune/ansible/roles/gke_checks/templates/validation-job.yaml.j2"));
    // nv-hostengine only where the operator does not run the engine.
    int branch = job.indexOf("{% if gke_checks_gpu_operator | bool %}");
    int orElse = job.indexOf("{% else %}", branch);
    assertTrue(branch >= 0 && orElse > branch, job);
    String withOperator = job.substring(branch, orElse);
    assertFalse(withOperator.contains("nv-hostengine >"), withOperator);
    assertTrue(withOperator.contains("dcgmi diag --host \"$GPUGEN_DCGM_HOST\""), withOperator);
  }
}
