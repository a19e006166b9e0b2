package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.Diagnostic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The two seed articles' configurations, written as gpugen specs (src/test/resources/seeds), get
 * exactly the findings they deserve: every mistake the articles make that a spec can express, and
 * nothing for what they get right.
 */
class SeedSpecsTest {
  static final Path SEEDS = Path.of("src/test/resources/seeds");

  static Gpugen.Checked check(String file, Optional<String> env) throws IOException {
    Path p = SEEDS.resolve(file);
    return TestSpecs.gpugen().check(p, p.toString(), env, Set.of());
  }

  static Set<String> ids(Gpugen.Checked c) {
    return c.diagnostics().stream()
        .map(Diagnostic::ruleId)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  static List<String> lines(Gpugen.Checked c, String ruleId) {
    return c.diagnostics().stream()
        .filter(d -> d.ruleId().equals(ruleId))
        .map(d -> d.position().line() + ": " + d.message())
        .toList();
  }

  @Test
  void seedOneGetsItsNcclMistakesAndTheEndOfLifeBranch() throws IOException {
    Gpugen.Checked c = check("seed1.yaml", Optional.empty());
    assertTrue(c.spec().isPresent(), c.diagnostics().toString());
    assertEquals(
        new TreeSet<>(
            List.of(
                "nccl-gdr-level-invalid", // NCCL_NET_GDR_LEVEL=5: not a level, read as SYS
                "nccl-algo-proto-forced", // NCCL_ALGO=Ring, NCCL_PROTO=Simple
                "nccl-socket-ifname-hardcoded", // eth1 on p5.48xlarge
                "drv-branch-end-of-life", // nvidia-driver-550: R550 has ended
                "efa-socket-tuning-ignored", // NSOCKS_PERTHREAD and BUFFSIZE on EFA
                "k8s-not-configured", // no kubernetes: section: nothing joins a cluster
                "conn-ssh-key-missing", // SSH from 10.0.0.0/8, but no key pair on the nodes
                "aws-vcpu-quota", // the P-instance vCPUs to have before the apply
                "val-nccl-test-too-small")), // all_reduce_perf -e 128M judged at 350 GB/s
        ids(c),
        c.diagnostics().toString());
    assertEquals(
        List.of(
            "45: NCCL_NET_GDR_LEVEL=5 is not a level: NCCL reads integers above 4 as SYS"
                + " (GPUDirect RDMA even across CPU sockets)"),
        lines(c, "nccl-gdr-level-invalid"));
    assertEquals(2, lines(c, "nccl-algo-proto-forced").size());
    assertEquals(
        List.of("33: driver branch R550 reached end of life: no more security fixes"),
        lines(c, "drv-branch-end-of-life"));
  }

  @Test
  void seedTwoIsJudgedByTheRealDriverMinimumAndItsRoceMistakesAreErrors() throws IOException {
    Gpugen.Checked c = check("seed2.yaml", Optional.empty());
    assertTrue(c.spec().isPresent(), c.diagnostics().toString());
    assertEquals(
        new TreeSet<>(
            List.of(
                "nccl-ib-disabled-on-rdma-fabric", // NCCL_IB_DISABLE=1 "because RoCE"
                "nccl-net-socket-on-rdma-fabric", // NCCL_NET=Socket on the same fabric
                "gcp-machine-type-unknown", // n1-standard-8-a100 does not exist
                "drv-branch-end-of-life", // R535 ended June 2026 (and dev's R545 ended too)
                "drv-new-feature-branch")), // the dev overlay's R545, checked without --env
        // (no sys-max-map-count-low: gpugen configures no GKE node's kernel)
        ids(c),
        c.diagnostics().toString());
    assertEquals(
        List.of(
            "40: driver branch R545 is a new-feature branch, not meant for production nodes"
                + " (environment dev)"),
        lines(c, "drv-new-feature-branch"));
    // 535.129.03 with CUDA 12.2 (Update 2 needs 535.104.05) is a sound pairing: no driver/CUDA
    // finding, whatever the article's own string comparison against "535.54.14" would say.
    assertTrue(ids(c).stream().noneMatch(id -> id.startsWith("drv-cuda")), ids(c).toString());
    assertEquals(
        List.of("37: NCCL_IB_DISABLE=1 disables the roce fabric: NCCL falls back to TCP sockets"),
        lines(c, "nccl-ib-disabled-on-rdma-fabric"));
  }

  @Test
  void seedTwoDevEnvironmentRunsAnEndedNewFeatureBranchReportedAtTheOverlay() throws IOException {
    Gpugen.Checked c = check("seed2.yaml", Optional.of("dev"));
    assertTrue(ids(c).contains("drv-new-feature-branch"), ids(c).toString());
    assertTrue(ids(c).stream().noneMatch(id -> id.startsWith("drv-cuda")), ids(c).toString());
    // 545.23.08 is written in environments.dev, and that is where the finding points.
    assertEquals(
        List.of("40: driver branch R545 is a new-feature branch, not meant for production nodes"),
        lines(c, "drv-new-feature-branch"));
  }
}
