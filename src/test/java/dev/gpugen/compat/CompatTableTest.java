package dev.gpugen.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class CompatTableTest {
  private static final CompatTable TABLE = CompatTable.load();

  private static Version v(String text) {
    return Version.parse(text);
  }

  @Test
  void loadReadsTheTableOnceAndSharesIt() {
    assertSame(TABLE, CompatTable.load());
  }

  // ---- AWS ------------------------------------------------------------------------------------

  @Test
  void p5_48xlargeIsEightH100OnNvswitchWith32EfaInterfaces() {
    AwsInstanceType p5 = TABLE.awsInstance("p5.48xlarge").orElseThrow();
    assertEquals("H100", p5.gpu());
    assertEquals(8, p5.gpuCount());
    assertEquals(80, p5.gpuMemoryGib());
    assertEquals(640, p5.totalGpuMemoryGib());
    assertEquals(Optional.of(true), p5.nvswitch());
    assertEquals(32, p5.networkCards());
    assertEquals(32, efa(p5));
    assertEquals(3200, p5.networkGbps());
    assertEquals(OptionalInt.of(64), p5.maxEnis());
    assertTrue(p5.gdrRequired());
    AwsInstanceType.MinStack stack = p5.minStack().orElseThrow();
    assertEquals(v("12.0"), stack.cuda());
    assertEquals(v("2.18.5"), stack.nccl());
    assertEquals(v("1.7.3"), stack.awsOfiNccl());
    assertEquals(v("1.29.0"), stack.efaInstaller());
    // The GPU row it points at is the Hopper one.
    assertEquals(GpuModel.Architecture.HOPPER, TABLE.gpu(p5.gpu()).orElseThrow().architecture());
  }

  @Test
  void p4dAndP4deAreEightA100WithFourEfaAndDifferOnlyInMemory() {
    AwsInstanceType p4d = TABLE.awsInstance("p4d.24xlarge").orElseThrow();
    AwsInstanceType p4de = TABLE.awsInstance("p4de.24xlarge").orElseThrow();
    for (AwsInstanceType t : List.of(p4d, p4de)) {
      assertEquals("A100", t.gpu());
      assertEquals(8, t.gpuCount());
      assertEquals(4, efa(t));
      assertEquals(400, t.networkGbps());
      assertEquals(Optional.of(true), t.nvswitch());
    }
    assertEquals(40, p4d.gpuMemoryGib());
    assertEquals(80, p4de.gpuMemoryGib());
  }

  @Test
  void efaInterfaceCountsFollowTheNetworkCardsOfEachType() {
    // One EFA per network card: p5/p5e 32, p5en 16, p6-b200 8, p4d 4.
    Map<String, Integer> expected =
        Map.of(
            "p5.48xlarge", 32,
            "p5e.48xlarge", 32,
            "p5en.48xlarge", 16,
            "p6-b200.48xlarge", 8,
            "p4d.24xlarge", 4);
    expected.forEach(
        (type, efa) -> assertEquals((long) efa, efa(TABLE.awsInstance(type).orElseThrow()), type));
  }

  @Test
  void gFamilyIsPcieWithOneNetworkCardExceptG6e() {
    AwsInstanceType g5 = TABLE.awsInstance("g5.48xlarge").orElseThrow();
    assertEquals("A10G", g5.gpu());
    assertEquals(8, g5.gpuCount());
    assertEquals(22, g5.gpuMemoryGib());
    assertEquals(Optional.of(false), g5.nvswitch());
    assertEquals(1, efa(g5));
    assertEquals(100, g5.networkGbps());

    AwsInstanceType g6 = TABLE.awsInstance("g6.48xlarge").orElseThrow();
    assertEquals("L4", g6.gpu());
    assertEquals(OptionalInt.of(15), g6.maxEnis());
    assertEquals(Optional.of(false), g6.nvswitch());

    AwsInstanceType g6e = TABLE.awsInstance("g6e.48xlarge").orElseThrow();
    assertEquals("L40S", g6e.gpu());
    assertEquals(44, g6e.gpuMemoryGib());
    assertEquals(4, efa(g6e));
    assertEquals(400, g6e.networkGbps());
  }

  @Test
  void gdrRequiredFollowsTheAwsOfiNcclPlatformTable() {
    for (String type :
        List.of(
            "p4d.24xlarge",
            "p4de.24xlarge",
            "p5.48xlarge",
            "p5e.48xlarge",
            "p5en.48xlarge",
            "p6-b200.48xlarge",
            "p6-b300.48xlarge",
            "p6e-gb200.36xlarge")) {
      assertTrue(TABLE.awsInstance(type).orElseThrow().gdrRequired(), type);
    }
    for (String type : List.of("p5.4xlarge", "g5.48xlarge", "g6.48xlarge", "g6e.48xlarge")) {
      assertFalse(TABLE.awsInstance(type).orElseThrow().gdrRequired(), type);
    }
  }

  @Test
  void unknownOrUnsourcedInstanceTypesAreAbsentNotGuessed() {
    // Names are exact: no case folding, no family guesses.
    assertEquals(Optional.empty(), TABLE.awsInstance("P5.48XLARGE"));
    assertEquals(Optional.empty(), TABLE.awsInstance("g6f.xlarge"), "fractional GPUs: not listed");
    // p6e-gb200: the sources do not say whether it uses NVSwitch.
    assertEquals(
        Optional.empty(), TABLE.awsInstance("p6e-gb200.36xlarge").orElseThrow().nvswitch());
    assertEquals(4, TABLE.awsInstance("p6e-gb200.36xlarge").orElseThrow().gpuCount());
  }

  /**
   * P6-B300: 17 network cards, card 0 ENA only and EFA on cards 1-16
   * (https://github.com/aws/aws-parallelcluster/issues/7143), HGX B300 on NVSwitch; so 16 EFA
   * interfaces, and the launch's card 0 is a plain ENA interface.
   */
  @Test
  void p6b300HasSixteenEfaInterfacesBehindAnEnaOnlyCard0() {
    AwsInstanceType b300 = TABLE.awsInstance("p6-b300.48xlarge").orElseThrow();
    assertEquals(17, b300.networkCards());
    assertFalse(b300.efaOnCard0());
    assertEquals(16, efa(b300));
    assertEquals(Optional.of(true), b300.nvswitch());
    List<AwsInstanceType.NetworkInterface> nics = b300.networkInterfaces(true);
    assertEquals(new AwsInstanceType.NetworkInterface(0, "interface"), nics.get(0));
    assertEquals(17, nics.size());
    assertTrue(
        nics.subList(1, 17).stream().allMatch(n -> n.type().equals("efa-only")), nics::toString);
    // Every other EFA type: EFA with ENA on card 0, one EFA per card.
    AwsInstanceType p5 = TABLE.awsInstance("p5.48xlarge").orElseThrow();
    assertEquals(32, efa(p5));
    assertEquals("efa", p5.networkInterfaces(true).get(0).type());
    assertEquals(
        List.of(new AwsInstanceType.NetworkInterface(0, "interface")), p5.networkInterfaces(false));
  }

  // ---- GCP ------------------------------------------------------------------------------------

  @Test
  void a2Highgpu8gIsEightA100_40gb() {
    GcpMachineType a2 = TABLE.gcpMachine("a2-highgpu-8g").orElseThrow();
    assertEquals("nvidia-tesla-a100", a2.accelerator());
    assertEquals(OptionalInt.of(8), a2.count());
    assertFalse(a2.isPattern());
    assertEquals("A100", TABLE.gcpAccelerator(a2.accelerator()).orElseThrow().gpu());
  }

  @Test
  void gcpMachineTypesNameTheirAccelerators() {
    Map<String, String> expected =
        Map.of(
            "a2-ultragpu-8g", "nvidia-a100-80gb",
            "a2-megagpu-16g", "nvidia-tesla-a100",
            "a3-highgpu-8g", "nvidia-h100-80gb",
            "a3-megagpu-8g", "nvidia-h100-mega-80gb",
            "a3-ultragpu-8g", "nvidia-h200-141gb",
            "a4-highgpu-8g", "nvidia-b200");
    expected.forEach(
        (machine, accelerator) ->
            assertEquals(
                accelerator, TABLE.gcpMachine(machine).orElseThrow().accelerator(), machine));
    assertEquals(OptionalInt.of(16), TABLE.gcpMachine("a2-megagpu-16g").orElseThrow().count());
  }

  @Test
  void g2SizesCarryGcpsL4CountsWhichTheNameDoesNotSay() {
    Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    counts.put("g2-standard-4", 1);
    counts.put("g2-standard-8", 1);
    counts.put("g2-standard-12", 1);
    counts.put("g2-standard-16", 1);
    counts.put("g2-standard-24", 2);
    counts.put("g2-standard-32", 1);
    counts.put("g2-standard-48", 4);
    counts.put("g2-standard-96", 8);
    counts.forEach(
        (machine, count) -> {
          GcpMachineType m = TABLE.gcpMachine(machine).orElseThrow();
          assertEquals(machine, m.name(), "an exact row, not the family pattern");
          assertEquals("nvidia-l4", m.accelerator(), machine);
          assertEquals(OptionalInt.of(count), m.count(), machine);
          assertEquals(
              List.of(
                  "https://cloud.google.com/compute/docs/accelerator-optimized-machines#g2-vms"),
              m.sources(),
              machine);
        });
  }

  @Test
  void familyPatternsMatchSizesWithoutInventingCounts() {
    GcpMachineType g2 = TABLE.gcpMachine("g2-standard-64").orElseThrow();
    assertEquals("g2-standard-*", g2.name());
    assertEquals("nvidia-l4", g2.accelerator());
    assertEquals(OptionalInt.empty(), g2.count());
    // An exact row wins over its family pattern.
    assertEquals("a3-highgpu-8g", TABLE.gcpMachine("a3-highgpu-8g").orElseThrow().name());
    assertEquals("a3-highgpu-*", TABLE.gcpMachine("a3-highgpu-4g").orElseThrow().name());
    assertFalse(TABLE.gcpMachine("a3-edgegpu-8g").orElseThrow().verified());
    assertEquals(Optional.empty(), TABLE.gcpMachine("n1-standard-8"));
    assertEquals(Optional.empty(), TABLE.gcpMachine("g2-highmem-8"));
  }

  // ---- CUDA and drivers -----------------------------------------------------------------------

  @Test
  void cuda12_8NeedsDriver570_26AndUpdate1Needs570_124_06() {
    assertEquals(Optional.of(v("570.26")), TABLE.minDriverFor(v("12.8")));
    assertEquals(Optional.of(v("570.124.06")), TABLE.minDriverFor(v("12.8u1")));
    // 12.8.1 is the toolkit's own spelling of 12.8 Update 1.
    assertEquals(Optional.of(v("570.124.06")), TABLE.minDriverFor(v("12.8.1")));
    // A newer patch than any listed update falls back to the newest listed update.
    assertEquals(Optional.of(v("570.124.06")), TABLE.minDriverFor(v("12.8.2")));
    assertEquals(Optional.of(v("525.60.13")), TABLE.mvcFloor(12));
  }

  @Test
  void cuda13NeedsR580AndAnR570DriverFallsBelowTheMvcFloor() {
    assertEquals(Optional.of(v("580.65.06")), TABLE.minDriverFor(v("13.0")));
    assertEquals(Optional.of(v("580.95.05")), TABLE.minDriverFor(v("13.0u2")));
    assertEquals(Optional.of(v("580.65.06")), TABLE.mvcFloor(13));
    // drv-cuda-below-compat-floor: 570.x cannot run CUDA 13 at all.
    assertTrue(v("570.195.03").isBefore(TABLE.mvcFloor(13).orElseThrow()));
    assertEquals(
        OptionalInt.of(12), TABLE.driverBranch(v("570.195.03")).orElseThrow().maxCudaMajor());
    assertEquals(OptionalInt.empty(), TABLE.minorVersionCompat(13).orElseThrow().mvcBelowBranch());
  }

  @Test
  void driverBetweenMvcFloorAndTableMinimumIsTheDrv002WarningBand() {
    Version driver = v("570.26");
    Version cuda = v("12.9");
    assertTrue(driver.isAtLeast(TABLE.mvcFloor(cuda.major()).orElseThrow()));
    assertTrue(driver.isBefore(TABLE.minDriverFor(cuda).orElseThrow()));
    assertEquals(OptionalInt.of(580), TABLE.minorVersionCompat(12).orElseThrow().mvcBelowBranch());
  }

  @Test
  void releasesThatDoNotExistHaveNoMinimumDriver() {
    assertEquals(Optional.empty(), TABLE.minDriverFor(v("12.7")));
    assertEquals(Optional.empty(), TABLE.minDriverFor(v("10.2")));
    assertEquals(Optional.empty(), TABLE.mvcFloor(10));
    assertFalse(TABLE.cudaRelease(v("13.3")).orElseThrow().verified());
  }

  @Test
  void driver580_95_05IsOnTheR580LongTermBranch() {
    Version driver = v("580.95.05");
    DriverBranch r580 = TABLE.driverBranch(driver).orElseThrow();
    assertEquals("R580", r580.name());
    assertEquals(driver.branch(), r580.name());
    assertEquals(DriverBranch.Type.LTSB, r580.type());
    assertEquals(DriverBranch.Status.SUPPORTED, r580.status());
    assertEquals(Optional.of(YearMonth.of(2028, 6)), r580.endOfLife());
    assertEquals(OptionalInt.of(13), r580.maxCudaMajor());
    assertFalse(r580.isEndOfLife(YearMonth.of(2026, 8)));
    assertEquals(KernelModule.OPEN, TABLE.defaultKernelModule(driver));
    // It is exactly the CUDA 13.0 Update 2 minimum and GPU Operator v25.10.0's default.
    assertEquals(driver, TABLE.minDriverFor(v("13.0u2")).orElseThrow());
    assertEquals(driver, TABLE.gpuOperator(v("v25.10.0")).orElseThrow().driver());
  }

  @Test
  void branchLifecycle() {
    assertEquals(DriverBranch.Status.END_OF_LIFE, TABLE.driverBranch(550).orElseThrow().status());
    assertTrue(TABLE.driverBranch(550).orElseThrow().isEndOfLife(YearMonth.of(2025, 1)));
    DriverBranch r570 = TABLE.driverBranch(570).orElseThrow();
    assertEquals(DriverBranch.Type.PRODUCTION, r570.type());
    assertFalse(r570.isEndOfLife(YearMonth.of(2026, 2)));
    assertTrue(r570.isEndOfLife(YearMonth.of(2026, 3)));
    assertEquals(DriverBranch.Type.LTSB, TABLE.driverBranch(535).orElseThrow().type());
    assertEquals(DriverBranch.Type.NEW_FEATURE, TABLE.driverBranch(610).orElseThrow().type());
    assertEquals(DriverBranch.Status.UNKNOWN, TABLE.driverBranch(590).orElseThrow().status());
    assertEquals(Optional.empty(), TABLE.driverBranch(v("999.1")));
    assertEquals(KernelModule.PROPRIETARY, TABLE.defaultKernelModule(v("550.163.01")));
    assertEquals(KernelModule.OPEN, TABLE.defaultKernelModule(v("560.28.03")));
  }

  @Test
  void cudaMinimumDriversNeverDecreaseAndNeverUndercutTheMvcFloor() {
    List<CudaRelease> releases = TABLE.cudaReleases();
    for (int i = 1; i < releases.size(); i++) {
      CudaRelease prev = releases.get(i - 1);
      CudaRelease next = releases.get(i);
      assertTrue(prev.version().isBefore(next.version()));
      assertTrue(
          next.minDriver().isAtLeast(prev.minDriver()),
          next.key() + " needs an older driver than " + prev.key());
    }
    for (CudaRelease r : releases) {
      Version floor = TABLE.mvcFloor(r.version().major()).orElseThrow();
      assertTrue(r.minDriver().isAtLeast(floor), r.key());
    }
  }

  // ---- GPUs -----------------------------------------------------------------------------------

  @Test
  void gpuLookupIgnoresCaseAndKnowsAliases() {
    assertEquals("H100", TABLE.gpu("h100").orElseThrow().name());
    assertEquals("A100", TABLE.gpu("A100-80GB").orElseThrow().name());
    assertEquals("A100", TABLE.gpu("a100-40gb").orElseThrow().name());
    assertEquals(Optional.empty(), TABLE.gpu("MI300X"));
  }

  @Test
  void kernelModuleFlavours() {
    GpuModel b200 = TABLE.gpu("B200").orElseThrow();
    assertEquals(GpuModel.KernelModules.OPEN_ONLY, b200.kernelModules());
    assertFalse(b200.kernelModules().allows(KernelModule.PROPRIETARY));
    assertTrue(b200.kernelModules().allows(KernelModule.OPEN));
    for (String blackwellOrGrace : List.of("B200", "B300", "GB200", "GH200")) {
      assertFalse(
          TABLE
              .gpu(blackwellOrGrace)
              .orElseThrow()
              .kernelModules()
              .allows(KernelModule.PROPRIETARY),
          blackwellOrGrace);
    }
    for (String voltaOrPascal : List.of("V100", "P100", "P4")) {
      GpuModel gpu = TABLE.gpu(voltaOrPascal).orElseThrow();
      assertFalse(gpu.kernelModules().allows(KernelModule.OPEN), voltaOrPascal);
      assertEquals(OptionalInt.of(580), gpu.maxDriverBranch(), voltaOrPascal);
      assertEquals(OptionalInt.of(12), gpu.maxCudaMajor(), voltaOrPascal);
    }
    assertTrue(TABLE.gpu("H100").orElseThrow().kernelModules().allows(KernelModule.PROPRIETARY));
  }

  @Test
  void gpuDriverFloors() {
    assertEquals(Optional.of(v("550.90.07")), TABLE.gpu("H200").orElseThrow().minDriver());
    assertEquals(Optional.of(v("535.104.05")), TABLE.gpu("L40S").orElseThrow().minDriver());
    GpuModel b200 = TABLE.gpu("B200").orElseThrow();
    assertEquals(Optional.of(v("570.86.15")), b200.minDriver());
    assertEquals(Optional.of(v("570.133.20")), b200.gpuOperatorMinDriverContainer());
    assertEquals(Optional.of(v("12.8")), b200.minCuda());
    assertEquals(Optional.of(v("10.0")), b200.computeCapability());
    assertEquals(OptionalInt.of(535), TABLE.gpu("H100").orElseThrow().recommendedMinDriverBranch());
    // drv-gpu-needs-newer-driver: every R535 driver is below the H200 floor.
    assertTrue(v("535.309.01").isBefore(TABLE.gpu("H200").orElseThrow().minDriver().orElseThrow()));
  }

  // ---- GPU Operator and Container Toolkit -----------------------------------------------------

  @Test
  void gpuOperatorReleasesCarryTheirDefaults() {
    GpuOperatorRelease r = TABLE.gpuOperator(v("25.10.0")).orElseThrow();
    assertEquals("v25.10.0", r.version().toString());
    assertEquals(v("1.18.0"), r.containerToolkit());
    assertEquals(v("0.18.0"), r.devicePlugin());
    assertTrue(r.cdiDefault());
    assertEquals(List.of(535, 570, 580), r.supportedBranches());

    GpuOperatorRelease latest = TABLE.gpuOperator(v("v26.7.0")).orElseThrow();
    assertEquals(v("595.91.07"), latest.driver());
    assertEquals(List.of(535, 580, 595, 610), latest.supportedBranches());
    assertEquals(
        List.of(535, 550), TABLE.gpuOperator(v("v23.9.2")).orElseThrow().supportedBranches());
    assertFalse(TABLE.gpuOperator(v("v24.9.2")).orElseThrow().cdiDefault());
    assertEquals(Optional.empty(), TABLE.gpuOperator(v("v24.6.1")));
  }

  @Test
  void containerToolkitSecurityFloorAndKnownIssues() {
    assertEquals(v("1.17.4"), TABLE.containerToolkitSecurityFloor());
    assertEquals(v("1.18.0"), TABLE.containerToolkitExactPackageMatchSince());
    assertTrue(
        TABLE.containerToolkit(v("1.16.2")).orElseThrow().fixesCves().contains("CVE-2024-0132"));
    assertTrue(TABLE.containerToolkit(v("1.18.0")).orElseThrow().knownIssue().isPresent());
    assertTrue(TABLE.containerToolkit(v("1.18.1")).orElseThrow().knownIssue().isEmpty());
    List<String> avoid =
        TABLE.containerToolkitReleases().stream()
            .filter(c -> c.knownIssue().isPresent())
            .map(CompatRow::key)
            .toList();
    assertEquals(List.of("1.18.0"), avoid);
    // Every operator's bundled toolkit is a release the table knows.
    for (GpuOperatorRelease r : TABLE.gpuOperators()) {
      assertTrue(TABLE.containerToolkit(r.containerToolkit()).isPresent(), r.key());
    }
  }

  // ---- Whole table ----------------------------------------------------------------------------

  @Test
  void everyRowHasANonBlankHttpsSource() {
    List<CompatRow> rows = TABLE.rows();
    assertTrue(rows.size() > 100, "table looks truncated: " + rows.size() + " rows");
    for (CompatRow row : rows) {
      String where = row.getClass().getSimpleName() + "[" + row.key() + "]";
      assertFalse(row.sources().isEmpty(), where);
      for (String source : row.sources()) {
        assertFalse(source.isBlank(), where);
        assertTrue(source.startsWith("https://"), where + ": " + source);
      }
    }
  }

  @Test
  void noTwoRowsOfOneKindShareAKey() {
    Map<String, CompatRow> seen = new HashMap<>();
    for (CompatRow row : TABLE.rows()) {
      String kind = row.getClass().getSimpleName();
      CompatRow clash = seen.put(kind + "/" + normalizedKey(row), row);
      assertNull(clash, kind + " key " + row.key() + " used twice");
    }
    // GPU names and aliases share one namespace.
    Map<String, String> gpuNames = new HashMap<>();
    for (GpuModel gpu : TABLE.gpus()) {
      for (String name : concat(gpu.name(), gpu.aliases())) {
        String clash = gpuNames.put(name.toLowerCase(Locale.ROOT), gpu.name());
        assertNull(clash, "GPU name " + name + " used twice");
      }
    }
  }

  /** Version keys are compared as versions (12.8 == 12.8.0), names ignoring case. */
  private static String normalizedKey(CompatRow row) {
    if (row instanceof CudaRelease r) {
      return withoutTrailingZeros(r.version());
    }
    if (row instanceof GpuOperatorRelease r) {
      return withoutTrailingZeros(r.version());
    }
    if (row instanceof ContainerToolkitRelease r) {
      return withoutTrailingZeros(r.version());
    }
    return row.key().toLowerCase(Locale.ROOT);
  }

  private static String withoutTrailingZeros(Version version) {
    List<Integer> parts = new ArrayList<>(version.parts());
    while (parts.size() > 1 && parts.get(parts.size() - 1) == 0) {
      parts.remove(parts.size() - 1);
    }
    return parts.toString();
  }

  private static List<String> concat(String first, List<String> rest) {
    return Stream.concat(Stream.of(first), rest.stream()).toList();
  }

  /** The EFA interfaces a node of type {@code t} gets on an EFA fabric. */
  private static long efa(dev.gpugen.compat.AwsInstanceType t) {
    return t.networkInterfaces(true).stream().filter(n -> !n.type().equals("interface")).count();
  }
}
