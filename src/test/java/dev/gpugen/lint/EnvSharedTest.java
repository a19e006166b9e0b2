package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * tf-env-shared-state and aws-env-shared-bucket: an overlay that takes the top's backend key or
 * checkpoint bucket is refused only where another environment takes it too.
 */
class EnvSharedTest {
  private static final String SPEC =
      """
      apiVersion: gpugen/v1
      kind: GpuCluster
      metadata: {name: demo%s}
      cloud: {provider: aws, region: us-east-1}
      storage: {checkpointBucket: demo-ckpt}
      pools:
        - {name: gpu, instanceType: p5.48xlarge, count: 1}
      software: {driver: "580.95.05", cuda: "12.8"}
      terraform: {backend: {s3: {bucket: demo-state, key: gpu/demo.tfstate}}}
      environments:
        dev: {%s}
        prod: {%s}
      """;

  private static List<String> messages(String yaml, String env) {
    Gpugen.Checked c = LinterTest.check(yaml, Optional.of(env), Set.of());
    List<Diagnostic> ds = new java.util.ArrayList<>(LinterTest.of(c, "tf-env-shared-state"));
    ds.addAll(LinterTest.of(c, "aws-env-shared-bucket"));
    return ds.stream().map(d -> d.ruleId() + ": " + d.message()).toList();
  }

  private static final String OWN_BOTH =
      "terraform: {backend: {s3: {key: gpu/x.tfstate}}}, storage: {checkpointBucket: x-ckpt}";

  @Test
  void twoOverlaysOfATopWithoutAnEnvironmentShareWhatNeitherSets() {
    List<String> m = messages(SPEC.formatted("", "pools: {gpu: {count: 1}}", "pools: {}"), "dev");
    assertEquals(
        List.of(
            "tf-env-shared-state: environment dev keeps its Terraform state at the spec's backend"
                + " key gpu/demo.tfstate (bucket demo-state), as environment prod does",
            "aws-env-shared-bucket: environment dev creates the checkpoint bucket demo-ckpt, as"
                + " environment prod does"),
        m);
  }

  @Test
  void anOverlayAloneInTakingTheTopsValuesSharesThemWithNoOne() {
    assertEquals(
        List.of(), messages(SPEC.formatted("", "pools: {gpu: {count: 1}}", OWN_BOTH), "dev"));
  }

  @Test
  void anOverlayNamedAsTheTopsEnvironmentIsThatEnvironment() {
    assertEquals(
        List.of(), messages(SPEC.formatted(", environment: prod", OWN_BOTH, "pools: {}"), "prod"));
    assertEquals(
        2, messages(SPEC.formatted(", environment: prod", "pools: {}", OWN_BOTH), "dev").size());
  }

  @Test
  void anOverlayWithABucketOfItsOwnKeepsItsStateApart() {
    String own = "terraform: {backend: {s3: {bucket: dev-state}}}, storage: {checkpointBucket: d}";
    assertEquals(
        List.of(), messages(SPEC.formatted(", environment: prod", own, "pools: {}"), "dev"));
  }
}
