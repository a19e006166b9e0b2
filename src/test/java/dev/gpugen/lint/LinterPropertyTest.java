package dev.gpugen.lint;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.Gpugen;
import dev.gpugen.TestSpecs;
import dev.gpugen.spec.Diagnostic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * 500 random specs that the grammar accepts never crash the linter: no exception, and every finding
 * points at a line and column inside the file. The per-spec time (read and lint) is printed after
 * the run; it is measured, not asserted.
 */
class LinterPropertyTest {
  private static final AtomicLong NANOS = new AtomicLong();
  private static final AtomicLong MAX_NANOS = new AtomicLong();
  private static final AtomicInteger SPECS = new AtomicInteger();
  private static final AtomicInteger FINDINGS = new AtomicInteger();
  private static final Gpugen GPUGEN = TestSpecs.gpugen();

  @Property(tries = 500)
  void randomValidSpecsNeverCrashTheLinter(@ForAll("specs") Generated g) {
    byte[] bytes = g.yaml().getBytes(StandardCharsets.UTF_8);
    long start = System.nanoTime();
    Gpugen.Checked c = GPUGEN.check("random.yaml", bytes, g.env(), Set.of());
    long took = System.nanoTime() - start;
    NANOS.addAndGet(took);
    MAX_NANOS.accumulateAndGet(took, Math::max);
    SPECS.incrementAndGet();
    FINDINGS.addAndGet(c.diagnostics().size());

    assertTrue(
        c.spec().isPresent(), "the generator must make valid specs:\n" + g + c.diagnostics());
    String[] lines = g.yaml().split("\n", -1);
    for (Diagnostic d : c.diagnostics()) {
      assertTrue(
          !d.ruleId().startsWith("spec-")
              || d.severity() != dev.gpugen.spec.Severity.ERROR
              || !readerRule(d.ruleId()),
          "reader error on a generated spec: " + d + "\n" + g);
      int line = d.position().line();
      assertTrue(line >= 1 && line <= lines.length, "line outside the file: " + d + "\n" + g);
      int col = d.position().column();
      assertTrue(
          col >= 1 && col <= lines[line - 1].length() + 1,
          "column outside line " + line + ": " + d + "\n" + g);
      assertTrue(!d.message().isBlank() && !d.message().contains("\n"), d.toString());
    }
  }

  private static boolean readerRule(String id) {
    return dev.gpugen.spec.yaml.ReaderRules.doc(id).isPresent();
  }

  @AfterContainer
  static void report() {
    int n = SPECS.get();
    if (n > 0) {
      System.out.printf(
          "LinterPropertyTest: %d random specs, %d findings, mean %.2f ms, max %.2f ms per spec"
              + " (read + lint)%n",
          n, FINDINGS.get(), NANOS.get() / 1e6 / n, MAX_NANOS.get() / 1e6);
    }
  }

  /** A generated spec and the environment to lint it with. */
  record Generated(String yaml, Optional<String> env) {
    @Override
    public String toString() {
      return "--- env " + env.orElse("-") + "\n" + yaml;
    }
  }

  // ---- generators ---------------------------------------------------------------------------

  static final List<String> AWS_TYPES =
      List.of(
          "p4d.24xlarge",
          "p4de.24xlarge",
          "p5.4xlarge",
          "p5.48xlarge",
          "p5e.48xlarge",
          "p5en.48xlarge",
          "p6-b200.48xlarge",
          "p6-b300.48xlarge",
          "p6e-gb200.36xlarge",
          "g5.48xlarge",
          "g6.48xlarge",
          "g6e.48xlarge",
          "p3.2xlarge",
          "p3.8xlarge",
          "p3.16xlarge",
          "g5.xlarge",
          "m5.large",
          "trn1.32xlarge");
  static final List<String> GCP_TYPES =
      List.of(
          "a2-highgpu-1g",
          "a2-megagpu-16g",
          "a2-ultragpu-8g",
          "a3-highgpu-8g",
          "a3-highgpu-4g",
          "a3-megagpu-8g",
          "a3-ultragpu-8g",
          "a4-highgpu-8g",
          "g2-standard-24",
          "n1-standard-8-a100",
          "n1-standard-8");
  static final List<String> NCCL_KEYS =
      List.of(
          "NCCL_ALGO",
          "NCCL_PROTO",
          "NCCL_NET_GDR_LEVEL",
          "NCCL_IB_GDR_LEVEL",
          "NCCL_SOCKET_IFNAME",
          "NCCL_IB_HCA",
          "NCCL_NET",
          "NCCL_BUFFSIZE",
          "NCCL_SOCKET_NTHREADS",
          "NCCL_NSOCKS_PERTHREAD",
          "NCCL_DEBUG",
          "NCCL_P2P_DISABLE",
          "NCCL_P2P_LEVEL",
          "NCCL_IB_DISABLE",
          "NCCL_NVLS_ENABLE",
          "NCCL_MIN_NCHANNELS",
          "FI_PROVIDER",
          "FI_EFA_USE_DEVICE_RDMA",
          "FI_EFA_FORK_SAFE",
          "CUDA_VISIBLE_DEVICES");
  static final List<String> NCCL_VALUES =
      List.of(
          "0",
          "1",
          "2",
          "4",
          "5",
          "-1",
          "16",
          "64",
          "4194304",
          "4000000",
          "999999999999999999999",
          "Ring",
          "ring,tree",
          "^NVLS",
          "allreduce:tree",
          "tree:",
          ":",
          "^",
          "",
          "LL128",
          "Simple",
          "LOC",
          "SYS",
          "NVL",
          "INFO",
          "TRACE",
          "WARN",
          "eth0",
          "^lo,docker",
          "=eth1",
          "mlx5_1,mlx5_2",
          "^=mlx5_0:1",
          "Socket",
          "IB",
          "Libfabric",
          "ofi",
          "efa",
          "AKIAIOSFODNN7EXAMPLE",
          "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");

  @Provide
  Arbitrary<Generated> specs() {
    Arbitrary<String> provider = Arbitraries.of("aws", "aws", "aws", "gcp", "static");
    return provider.flatMap(
        p ->
            Combinators.combine(
                    header(p),
                    network(p),
                    storage(),
                    pools(p).list().ofMinSize(1).ofMaxSize(4),
                    software(false),
                    tail(),
                    Arbitraries.of(true, false))
                .as(
                    (h, n, s, ps, sw, t, env) -> {
                      StringBuilder b = new StringBuilder(h).append(n).append(s);
                      b.append("pools:\n");
                      for (int i = 0; i < ps.size(); i++) {
                        b.append(ps.get(i).replace("NAME", "pool" + i));
                      }
                      b.append("software:\n").append(sw).append(t);
                      if (env) {
                        b.append(
                            "environments:\n  dev:\n    software: {driver: \"580.65.06\","
                                + " cuda: \"13.0\"}\n    pools: {pool0: {count: 3}}\n");
                      }
                      return new Generated(
                          b.toString(), env ? Optional.of("dev") : Optional.empty());
                    }));
  }

  static Arbitrary<String> header(String provider) {
    String region =
        switch (provider) {
          case "aws" -> "  region: us-east-1\n";
          case "gcp" -> "  region: us-central1\n";
          default -> "";
        };
    Arbitrary<String> imds =
        Arbitraries.of(
            "",
            "  imds: {httpTokens: optional}\n",
            "  imds: {httpTokens: required, hopLimit: 2}\n");
    return imds.map(
        i ->
            "apiVersion: gpugen/v1\nkind: GpuCluster\nmetadata:\n  name: random\ncloud:\n"
                + "  provider: "
                + provider
                + "\n"
                + region
                + i);
  }

  static Arbitrary<String> network(String provider) {
    Arbitrary<String> placement = Arbitraries.of("cluster", "partition", "spread", "none");
    Arbitrary<String> fabric = Arbitraries.of("", "efa", "infiniband", "roce", "tcp");
    Arbitrary<String> ssh = Arbitraries.of("[]", "[203.0.113.0/24]", "[0.0.0.0/0]", "[10.1.2.3/8]");
    return Combinators.combine(placement, fabric, ssh)
        .as(
            (pl, f, s) ->
                "network:\n  vpcCidr: 10.42.0.0/16\n  subnetCidr: 10.42.0.0/20\n"
                    + "  sshIngressCidrs: "
                    + s
                    + "\n  placement: "
                    + pl
                    + "\n"
                    + (f.isEmpty() ? "" : "  fabric: " + f + "\n"));
  }

  static Arbitrary<String> storage() {
    Arbitrary<String> lustre =
        Combinators.combine(
                Arbitraries.of(1200, 2400, 3600, 4800, 7200, 1201, 2000000),
                Arbitraries.of("SCRATCH_1", "SCRATCH_2", "PERSISTENT_1", "PERSISTENT_2"),
                Arbitraries.of(0, 12, 50, 125, 200, 250, 1000))
            .as(
                (c, d, t) ->
                    "  lustre: {capacityGiB: "
                        + c
                        + ", deploymentType: "
                        + d
                        + (t == 0 ? "" : ", perUnitStorageThroughput: " + t)
                        + "}\n");
    Arbitrary<String> bucket = Arbitraries.of("", "  checkpointBucket: random-ckpt\n");
    return Combinators.combine(lustre.injectNull(0.4), bucket)
        .as(
            (l, b) -> {
              String body = (l == null ? "" : l) + b;
              return body.isEmpty() ? "" : "storage:\n" + body;
            });
  }

  static Arbitrary<String> pools(String provider) {
    Arbitrary<String> type = Arbitraries.of(provider.equals("gcp") ? GCP_TYPES : AWS_TYPES);
    Arbitrary<String> extra =
        Arbitraries.of(
            "",
            "    market: spot\n",
            "    rootVolume: {type: gp3, sizeGiB: 500, iops: 16000, encrypted: false}\n",
            "    labels: {owner: AKIAIOSFODNN7EXAMPLE, team: ml}\n",
            "    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n");
    return Combinators.combine(
            type, Arbitraries.integers().between(0, 64), extra, software(true).injectNull(0.7))
        .as(
            (t, n, e, sw) ->
                "  - name: NAME\n    instanceType: "
                    + t
                    + "\n    count: "
                    + n
                    + "\n"
                    + e
                    + (sw == null ? "" : "    software:\n" + sw.replaceAll("(?m)^(?=.)", "    ")));
  }

  static Arbitrary<String> software(boolean partial) {
    Arbitrary<String> driver =
        Combinators.combine(
                Arbitraries.of(
                    418, 450, 470, 525, 535, 545, 550, 555, 560, 565, 570, 575, 580, 590, 595, 600,
                    610, 620, 999),
                Arbitraries.integers().between(0, 999),
                Arbitraries.integers().between(0, 99).injectNull(0.3))
            .as((b, m, p) -> b + "." + m + (p == null ? "" : "." + String.format("%02d", p)));
    Arbitrary<String> cuda =
        Combinators.combine(
                Arbitraries.integers().between(10, 14), Arbitraries.integers().between(0, 12))
            .as((a, b) -> a + "." + b);
    Arbitrary<String> ctk =
        Arbitraries.of("1.14.0", "1.16.2", "1.17.3", "1.17.4", "1.17.8", "1.18.0", "1.99.0");
    Arbitrary<String> op =
        Arbitraries.of("v23.9.2", "v24.3.0", "v25.3.1", "v25.10.0", "v26.7.0", "v99.0.0");
    Arbitrary<String> km = Arbitraries.of("auto", "open", "proprietary");
    Arbitrary<Boolean> mig = Arbitraries.of(true, false);
    Arbitrary<Integer> replicas = Arbitraries.integers().between(1, 64);
    return Combinators.combine(driver, cuda, ctk, op, km, mig, replicas)
        .as(
            (d, c, t, o, k, m, r) -> {
              List<String> lines = new ArrayList<>();
              lines.add("  driver: \"" + d + "\"\n");
              lines.add("  cuda: \"" + c + "\"\n");
              lines.add("  containerToolkit: \"" + t + "\"\n");
              lines.add("  kernelModules: " + k + "\n");
              lines.add("  gpuOperator: {version: " + o + ", migManager: " + m + "}\n");
              lines.add("  devicePlugin: {timeSlicingReplicas: " + r + "}\n");
              if (partial) {
                // A pool overrides some keys: keep a pseudo-random subset.
                int keep = Math.abs((d + c + t).hashCode()) % 64 | 1;
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < lines.size(); i++) {
                  if ((keep & (1 << i)) != 0) {
                    b.append(lines.get(i));
                  }
                }
                return b.toString();
              }
              return String.join("", lines);
            });
  }

  static Arbitrary<String> tail() {
    Arbitrary<List<String>> env =
        Combinators.combine(Arbitraries.of(NCCL_KEYS), Arbitraries.of(NCCL_VALUES))
            .as((k, v) -> k + "\u0000" + v)
            .list()
            .ofMaxSize(6);
    Arbitrary<String> sysctl =
        Arbitraries.of(
            "",
            "  sysctl: {vm.max_map_count: 65530}\n",
            "  sysctl: {kernel.numa_balancing: 1, vm.max_map_count: 262144}\n",
            "  sysctl: {kernel.numa_balancing: 0, vm.max_map_count: 2147483647}\n");
    Arbitrary<String> validation =
        Combinators.combine(
                Arbitraries.of(0.1, 100.0, 296.0, 350.0, 480.5, 100000.0),
                Arbitraries.of("8", "128M", "1G", "8G", "999999K"),
                Arbitraries.integers().between(1, 4))
            .as(
                (bw, max, level) ->
                    "validation:\n  dcgmDiagLevel: "
                        + level
                        + "\n  ncclAllReduce: {minBusBandwidthGBps: "
                        + bw
                        + ", maxBytes: \""
                        + max
                        + "\"}\n");
    Arbitrary<String> lint =
        Arbitraries.of(
            "",
            "lint:\n  skip: [drv-branch-end-of-life, no-such-rule]\n",
            "lint:\n  severity: {nccl-algo-proto-forced: error, sec-ssh-open-to-world: info}\n");
    Arbitrary<Boolean> nouveau = Arbitraries.of(true, false);
    return Combinators.combine(env, sysctl, validation.injectNull(0.3), lint, nouveau)
        .as(
            (e, s, v, l, nv) -> {
              StringBuilder b = new StringBuilder("kernel:\n  blacklistNouveau: " + nv + "\n");
              b.append(s);
              java.util.TreeMap<String, String> vars = new java.util.TreeMap<>();
              for (String kv : e) {
                String[] parts = kv.split("\u0000", -1);
                vars.put(parts[0], parts[1]);
              }
              if (!vars.isEmpty()) {
                b.append("nccl:\n  env:\n");
                vars.forEach(
                    (k, val) ->
                        b.append("    ").append(k).append(": \"").append(val).append("\"\n"));
              }
              if (v != null) {
                b.append(v);
              }
              return b.append(l).toString();
            });
  }
}
