package dev.gpugen.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.InternalFailure;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A malformed table must fail loudly, naming the row and key that are wrong. */
class CompatYamlTest {

  /** The smallest table the loader accepts: one row per section. */
  private static final String VALID =
      """
      sources:
        RN: &RN https://example.com/rn
      cuda_releases:
        "12.8": {min_driver: "570.26", source: *RN}
      cuda_minor_version_compat:
        "12": {min_driver: "525.60.13", mvc_below_branch: R580, source: *RN}
      driver_branches:
        R570: {type: PB, status: supported, eol: "2026-02", max_cuda_major: 12, source: *RN}
        R580: {type: LTSB, status: supported, source: *RN}
      kernel_modules: {open_default_since_branch: R580, source: *RN}
      gpus:
        H100: {arch: hopper, cc: "9.0", min_driver: "525.85.12", kernel_modules: open_or_proprietary, source: *RN}
      aws_instances:
        p5.48xlarge: {gpu: H100, gpus: 8, vcpus: 192, gpu_memory_gib: 80, network_gbps: 3200, network_cards: 32, efa: true, gdr_required: true, instance_store: {volumes: 8, size_gb: 3800}, source: *RN}
      aws_efa_other_types: {types: [c5n.18xlarge], source: *RN}
      efa_device_plugin: {chart_version: v0.5.30, instance_types: [c5n.18xlarge], source: *RN}
      aws_capacity_blocks: {instance_types: [p5.48xlarge], unverified_instance_types: [p5e.48xlarge], termination_lead_minutes: 30, source: *RN}
      gcp_accelerators:
        nvidia-h100-80gb: {gpu: H100, source: *RN}
      gcp_machines:
        a3-highgpu-8g: {accelerator: nvidia-h100-80gb, count: 8, source: *RN}
      gpu_operator_releases:
        v25.10.0: {driver: "580.95.05", container_toolkit: "1.18.0", device_plugin: "0.18.0", cdi_default: true, source: *RN}
      gke_versions:
        "1.35": {end_of_standard_support: "2027-04-11", source: *RN}
      container_toolkit:
        exact_package_match_since: "1.18.0"
        runtime_config_source_since: "1.18.0"
        source: *RN
        releases:
          "1.17.4": {fixes_cves: [CVE-2025-23359], source: *RN}
          "1.18.0": {source: *RN}
      lifecycle: {as_of: "2026-08", source: *RN}
      driver_known_issues:
        mig-issue: {drivers: ["570.124.06"], fixed_in: "570.172.08", when: mig, description: "x", source: *RN}
      allreduce_busbw:
        H100: {gpus: 8, ring_gbps: 370, nvls_gbps: 480, source: *RN}
      nccl:
        net_names: [IB, Socket, Libfabric]
        net_gdr_levels: [LOC, PIX, PXB, PHB, SYS]
        p2p_levels: [LOC, NVL, PIX, PXB, PHB, SYS]
        max_level_integer: "4"
        algorithms: [Ring, Tree]
        protocols: [LL, LL128, Simple]
        debug_levels: [VERSION, WARN, INFO, TRACE]
        socket_nthreads_max: "16"
        socket_threads_times_socks_max: "64"
        source: *RN
      fsx_lustre:
        PERSISTENT_2: {capacity_step_gib: "2400", throughputs: ["125", "1000"], source: *RN}
      aws_vcpu_quotas:
        L-417A185B: {name: Running On-Demand P instances, market: on-demand, families: [p], source: *RN}
      aws_regions:
        us-east-1: {source: *RN}
      gcp_regions:
        us-central1: {zones: [a, b, c, f], source: *RN}
      """;

  private static InternalFailure failure(String yaml) {
    return assertThrows(InternalFailure.class, () -> CompatYaml.parse(yaml, "test.yaml"));
  }

  private static String broken(String from, String to) {
    assertTrue(VALID.contains(from), "fixture does not contain " + from);
    return VALID.replace(from, to);
  }

  @Test
  void theMinimalTableLoadsAndAnswersLookups() {
    CompatTable table = CompatYaml.parse(VALID, "test.yaml");
    assertEquals(
        32,
        table.awsInstance("p5.48xlarge").orElseThrow().networkInterfaces(true).stream()
            .filter(n -> !n.type().equals("interface"))
            .count());
    assertEquals(Optional.of(Version.parse("570.26")), table.minDriverFor(Version.parse("12.8")));
    assertEquals(Version.parse("1.17.4"), table.containerToolkitSecurityFloor());
    assertEquals(KernelModule.PROPRIETARY, table.defaultKernelModule(Version.parse("570.26")));
    assertEquals(192, table.awsInstance("p5.48xlarge").orElseThrow().vcpus());
    assertEquals("L-417A185B", table.vcpuQuota("p5.48xlarge", "on-demand").orElseThrow().code());
    assertEquals(Optional.empty(), table.vcpuQuota("p5.48xlarge", "spot"), "no spot row here");
    assertEquals(Optional.empty(), table.vcpuQuota("m5.large", "on-demand"));
  }

  @ParameterizedTest(name = "{2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // from | to | expected message fragment
        "gpus: 8, | gpus: eight, | test.yaml: aws_instances[p5.48xlarge].gpus: expected a whole number, got \"eight\"",
        "gpus: 8, | gpus: 1234567890, | aws_instances[p5.48xlarge].gpus: expected a whole number, got \"1234567890\"",
        "gpus: 8, | gpus: -8, | aws_instances[p5.48xlarge].gpus: expected a whole number, got \"-8\"",
        "gpus: 8, | gpus: \"\u0668\", | aws_instances[p5.48xlarge].gpus: expected a whole number, got \"\u0668\"",
        "{gpu: H100, source: *RN} | {gpu: H100, source: \"https://example.com/a\\u2003b\"} | expected an https:// URL",
        "{gpu: H100, source: *RN} | {gpu: H100, source: \"https://example.com/a\\tb\"} | expected an https:// URL",
        "vcpus: 192, | vcpu: 192, | aws_instances[p5.48xlarge].vcpus: missing",
        "market: on-demand, | market: reserved, | aws_vcpu_quotas[L-417A185B]: L-417A185B: market must be on-demand or spot",
        "min_driver: \"570.26\", | min_driver: \"570.x\", | cuda_releases[12.8].min_driver: not a version: \"570.x\"",
        "cc: \"9.0\", | ccc: \"9.0\", | gpus[H100]: unknown key(s) [ccc]; known here: [",
        "{gpu: H100, source: *RN} | {gpu: H100} | gcp_accelerators[nvidia-h100-80gb].source: missing",
        "{gpu: H100, source: *RN} | {gpu: H100, source: http://example.com} | expected an https:// URL",
        "{gpu: H100, gpus: | {gpu: H200, gpus: | aws_instances[p5.48xlarge]: unknown GPU \"H200\"",
        "accelerator: nvidia-h100-80gb, count | accelerator: nvidia-h200, count | gcp_machines[a3-highgpu-8g]: unknown accelerator",
        "max_cuda_major: 12, | max_cuda_major: 12, note: , | in test.yaml, line 8, column",
        "max_cuda_major: 12, | max_cuda_major: 12, note: \"\", | driver_branches[R570].note: expected text, got \"\"",
        "type: PB, | type: PRODUCTION, | driver_branches[R570].type: expected one of [LTSB, NFB, PB]",
        "eol: \"2026-02\" | eol: \"Feb 2026\" | driver_branches[R570].eol: expected a month like 2026-06",
        "mvc_below_branch: R580 | mvc_below_branch: R590 | cuda_minor_version_compat[12]: unknown driver branch R590",
        "efa: true, | efa: yes, | aws_instances[p5.48xlarge].efa: expected true or false, got \"yes\"",
        "count: 8, source: *RN} | source: *RN} | gcp_machines[a3-highgpu-8g].count: required",
        "fixes_cves: [CVE-2025-23359] | fixes_cves: [2025-23359] | is not a CVE id",
        "gpu_memory_gib: 80 | gpu_memory_gib: 0 | aws_instances[p5.48xlarge]: p5.48xlarge: GPU count, vCPUs, GPU memory",
        "R580: {type: LTSB | R58: {type: LTSB | driver_branches[R58]: expected a driver branch like R580",
      })
  void malformedRowsNameTheRowAndKey(String from, String to, String expected) {
    InternalFailure e = failure(broken(from.strip(), to.strip()));
    assertTrue(e.getMessage().contains(expected.strip()), e.getMessage());
  }

  @Test
  void duplicateYamlKeysAreRejected() {
    InternalFailure e =
        failure(
            broken(
                "  \"12.8\": {min_driver: \"570.26\", source: *RN}\n",
                "  \"12.8\": {min_driver: \"570.26\", source: *RN}\n"
                    + "  \"12.8\": {min_driver: \"570.124.06\", source: *RN}\n"));
    assertTrue(e.getMessage().startsWith("test.yaml: not a valid table"), e.getMessage());
    assertTrue(e.getMessage().contains("12.8"), e.getMessage());
  }

  @Test
  void versionKeysThatAreEqualAsVersionsClash() {
    InternalFailure e =
        failure(
            broken(
                "  \"12.8\": {min_driver: \"570.26\", source: *RN}\n",
                "  \"12.8\": {min_driver: \"570.26\", source: *RN}\n"
                    + "  \"12.8.0\": {min_driver: \"570.26\", source: *RN}\n"));
    assertTrue(
        e.getMessage().contains("cuda_releases[12.8.0]: same key as row 12.8"), e.getMessage());
  }

  @Test
  void gpuAliasesMayNotShadowAnotherGpu() {
    InternalFailure e =
        failure(
            broken(
                "  H100: {arch: hopper,",
                "  H200: {arch: hopper, kernel_modules: open_only, aliases: [h100], source: *RN}\n"
                    + "  H100: {arch: hopper,"));
    assertTrue(
        e.getMessage().contains("gpus[H100]: name \"H100\" is already used by H200"),
        e.getMessage());
  }

  @Test
  void missingAndUnknownSectionsAreRejected() {
    InternalFailure missing = failure(VALID.replace("gcp_accelerators:", "gcp_accelerator:"));
    assertTrue(
        missing.getMessage().contains("missing key \"gcp_accelerators\""), missing.getMessage());

    InternalFailure unknown = failure(VALID + "azure_vms: {}\n");
    assertTrue(unknown.getMessage().contains("unknown key(s) [azure_vms]"), unknown.getMessage());
  }

  @Test
  void aSectionMustBeAMappingOfRows() {
    InternalFailure e =
        failure(
            broken(
                "gcp_accelerators:\n  nvidia-h100-80gb: {gpu: H100, source: *RN}",
                "gcp_accelerators: []"));
    assertTrue(
        e.getMessage().contains("gcp_accelerators: expected a mapping, got a list"),
        e.getMessage());
  }

  @Test
  void withoutACveFixThereIsNoSecurityFloor() {
    InternalFailure e =
        failure(broken("{fixes_cves: [CVE-2025-23359], source: *RN}", "{source: *RN}"));
    assertTrue(e.getMessage().contains("no release lists fixes_cves"), e.getMessage());
  }
}
