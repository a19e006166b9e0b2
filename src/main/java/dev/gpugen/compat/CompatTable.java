package dev.gpugen.compat;

import dev.gpugen.failure.InternalFailure;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The GPU compatibility table: CUDA releases and their driver floors, driver branches, GPU models,
 * AWS instance types, GCP machine and accelerator types, GPU Operator and Container Toolkit
 * releases. Read once from {@code compat.yaml}; immutable and safe to share between threads.
 *
 * <p>Lookups return {@link Optional#empty()} when the table has no row, which callers should report
 * as "unknown to gpugen", not as an error in the spec.
 */
public final class CompatTable {
  private final TreeMap<Version, CudaRelease> cudaByVersion = new TreeMap<>();
  private final Map<Integer, MinorVersionCompat> mvcByMajor = new LinkedHashMap<>();
  private final Map<Integer, DriverBranch> branchByNumber = new LinkedHashMap<>();
  private final int openModulesDefaultSinceBranch;
  private final List<GpuModel> gpus;
  private final Map<String, GpuModel> gpuByName = new HashMap<>();
  private final Map<String, AwsInstanceType> awsByName = new LinkedHashMap<>();
  private final Map<String, GcpAccelerator> gcpAcceleratorByType = new LinkedHashMap<>();
  private final List<GcpMachineType> gcpMachines;
  private final Map<String, GcpMachineType> gcpMachineByName = new HashMap<>();
  private final List<GcpMachineType> gcpPatternsLongestFirst;
  private final Map<Version, GpuOperatorRelease> operatorByVersion = new LinkedHashMap<>();
  private final Version ctkExactPackageMatchSince;
  private final Map<Version, ContainerToolkitRelease> ctkByVersion = new LinkedHashMap<>();
  private final Version ctkSecurityFloor;
  private final Extras extras;
  private final Map<String, AllReduceBandwidth> busbwByGpu = new LinkedHashMap<>();
  private final Map<String, LustreDeployment> lustreByType = new LinkedHashMap<>();
  private final Map<String, CloudRegion> regionByKey = new LinkedHashMap<>();

  /**
   * The sections the linter added: the lifecycle month, driver known issues, all-reduce bandwidth
   * expectations, NCCL facts and FSx for Lustre limits.
   *
   * @param lifecycleAsOf the month the branch lifecycle data was read; end of life is judged as of
   *     it
   * @param efaOtherTypes EC2 instance types without a row that support EFA
   * @param efaDevicePlugin the pinned EFA device plugin chart and the types it schedules on
   * @param capacityBlocks the instance types EC2 Capacity Blocks for ML offer
   * @param vcpuQuotas the EC2 vCPU quotas GPU instances count against
   */
  record Extras(
      YearMonth lifecycleAsOf,
      List<DriverKnownIssue> driverKnownIssues,
      List<AllReduceBandwidth> allReduce,
      NcclFacts nccl,
      List<LustreDeployment> lustre,
      List<CloudRegion> regions,
      List<String> efaOtherTypes,
      EfaDevicePluginChart efaDevicePlugin,
      CapacityBlockTypes capacityBlocks,
      List<Ec2VcpuQuota> vcpuQuotas) {
    Extras {
      Objects.requireNonNull(capacityBlocks);
      Objects.requireNonNull(efaDevicePlugin);
      vcpuQuotas = List.copyOf(vcpuQuotas);
      regions = List.copyOf(regions);
      efaOtherTypes = List.copyOf(efaOtherTypes);
      Objects.requireNonNull(lifecycleAsOf);
      driverKnownIssues = List.copyOf(driverKnownIssues);
      allReduce = List.copyOf(allReduce);
      Objects.requireNonNull(nccl);
      lustre = List.copyOf(lustre);
    }
  }

  /** Builds the indexes and checks keys and cross-references; {@code label} names the file. */
  CompatTable(
      String label,
      List<CudaRelease> cudaReleases,
      List<MinorVersionCompat> mvcs,
      List<DriverBranch> branches,
      int openModulesDefaultSinceBranch,
      List<GpuModel> gpus,
      List<AwsInstanceType> awsInstances,
      List<GcpAccelerator> gcpAccelerators,
      List<GcpMachineType> gcpMachines,
      List<GpuOperatorRelease> operators,
      Version ctkExactPackageMatchSince,
      List<ContainerToolkitRelease> ctkReleases,
      Extras extras) {
    this.gpus = List.copyOf(gpus);
    this.gcpMachines = List.copyOf(gcpMachines);
    this.openModulesDefaultSinceBranch = openModulesDefaultSinceBranch;
    this.ctkExactPackageMatchSince = ctkExactPackageMatchSince;
    this.extras = extras;
    Checker check = new Checker(label);
    index(check, "allreduce_busbw", extras.allReduce(), AllReduceBandwidth::gpu, busbwByGpu);
    index(check, "fsx_lustre", extras.lustre(), LustreDeployment::type, lustreByType);
    index(check, "aws_regions/gcp_regions", extras.regions(), CloudRegion::key, regionByKey);
    Map<String, DriverKnownIssue> issues = new LinkedHashMap<>();
    index(check, "driver_known_issues", extras.driverKnownIssues(), DriverKnownIssue::id, issues);

    index(check, "cuda_releases", cudaReleases, CudaRelease::version, cudaByVersion);
    index(check, "cuda_minor_version_compat", mvcs, MinorVersionCompat::cudaMajor, mvcByMajor);
    index(check, "driver_branches", branches, DriverBranch::number, branchByNumber);
    for (GpuModel gpu : this.gpus) {
      List<String> names = new ArrayList<>(List.of(gpu.name()));
      names.addAll(gpu.aliases());
      for (String name : names) {
        GpuModel clash = gpuByName.putIfAbsent(name.toLowerCase(Locale.ROOT), gpu);
        if (clash != null) {
          throw check.error(
              "gpus", gpu.name(), "name \"" + name + "\" is already used by " + clash.name());
        }
      }
    }
    index(check, "aws_instances", awsInstances, AwsInstanceType::name, awsByName);
    for (String type : extras.efaOtherTypes()) {
      if (awsByName.containsKey(type)) {
        throw check.error(
            "aws_efa_other_types", type, "is a GPU type; its EFA support belongs in aws_instances");
      }
    }
    index(check, "gcp_accelerators", gcpAccelerators, GcpAccelerator::type, gcpAcceleratorByType);
    index(check, "gcp_machines", this.gcpMachines, GcpMachineType::name, gcpMachineByName);
    this.gcpPatternsLongestFirst =
        this.gcpMachines.stream()
            .filter(GcpMachineType::isPattern)
            .sorted(Comparator.comparingInt((GcpMachineType m) -> m.name().length()).reversed())
            .toList();
    index(
        check, "gpu_operator_releases", operators, GpuOperatorRelease::version, operatorByVersion);
    index(
        check,
        "container_toolkit.releases",
        ctkReleases,
        ContainerToolkitRelease::version,
        ctkByVersion);

    // Every name one row uses to point at another must resolve.
    for (MinorVersionCompat m : mvcs) {
      m.mvcBelowBranch()
          .ifPresent(b -> check.branch(branchByNumber, "cuda_minor_version_compat", m.key(), b));
    }
    check.branch(
        branchByNumber,
        "kernel_modules",
        "open_default_since_branch",
        openModulesDefaultSinceBranch);
    for (GpuModel g : this.gpus) {
      g.maxDriverBranch().ifPresent(b -> check.branch(branchByNumber, "gpus", g.name(), b));
      g.recommendedMinDriverBranch()
          .ifPresent(b -> check.branch(branchByNumber, "gpus", g.name(), b));
    }
    for (AwsInstanceType a : awsInstances) {
      check.gpu(gpuByName, "aws_instances", a.name(), a.gpu());
    }
    for (AllReduceBandwidth b : extras.allReduce()) {
      check.gpu(gpuByName, "allreduce_busbw", b.gpu(), b.gpu());
    }
    for (GcpAccelerator a : gcpAccelerators) {
      check.gpu(gpuByName, "gcp_accelerators", a.type(), a.gpu());
    }
    for (GcpMachineType m : this.gcpMachines) {
      if (!gcpAcceleratorByType.containsKey(m.accelerator())) {
        throw check.error(
            "gcp_machines",
            m.name(),
            "unknown accelerator \"" + m.accelerator() + "\"; add it to gcp_accelerators");
      }
    }
    for (GpuOperatorRelease r : operators) {
      for (int b : r.supportedBranches()) {
        check.branch(branchByNumber, "gpu_operator_releases", r.key(), b);
      }
    }
    this.ctkSecurityFloor =
        ctkReleases.stream()
            .filter(r -> !r.fixesCves().isEmpty())
            .map(ContainerToolkitRelease::version)
            .max(Comparator.naturalOrder())
            .orElseThrow(
                () ->
                    check.error(
                        "container_toolkit",
                        "releases",
                        "no release lists fixes_cves, so there is no security floor"));
  }

  /** The table gpugen ships, read from {@code compat.yaml} on first use. */
  public static CompatTable load() {
    if (Holder.FAILURE != null) {
      throw new InternalFailure(Holder.FAILURE.getMessage(), Holder.FAILURE);
    }
    return Holder.TABLE;
  }

  /**
   * Lazy, thread-safe initialisation: the class loader runs this once, on first access. A broken
   * table is kept as its error so every {@link #load()} reports the same message.
   */
  private static final class Holder {
    static final CompatTable TABLE;
    static final InternalFailure FAILURE;

    static {
      CompatTable table = null;
      InternalFailure failure = null;
      try {
        table = CompatYaml.loadResource();
      } catch (InternalFailure e) {
        failure = e;
      }
      TABLE = table;
      FAILURE = failure;
    }
  }

  // ---- CUDA ----------------------------------------------------------------------------------

  /**
   * The CUDA release row for {@code cuda}: the exact release ({@code 12.8}, {@code 12.8u1}), or
   * else the newest listed update of the same major.minor that is not newer than {@code cuda} (so
   * {@code 12.8.2} finds {@code 12.8u1}). Empty for releases that do not exist, such as 12.7.
   */
  public Optional<CudaRelease> cudaRelease(Version cuda) {
    Entry<Version, CudaRelease> floor = cudaByVersion.floorEntry(cuda);
    if (floor == null
        || floor.getKey().major() != cuda.major()
        || floor.getKey().minor() != cuda.minor()) {
      return Optional.empty();
    }
    return Optional.of(floor.getValue());
  }

  /**
   * The newest listed update of {@code cuda}'s major.minor ({@code 12.8u1} for {@code 12.8}): what
   * {@code apt-get install cuda-toolkit-12-8} installs. Empty when the table has no such release.
   */
  public Optional<CudaRelease> newestUpdateOf(Version cuda) {
    return cudaByVersion.values().stream()
        .filter(r -> r.version().major() == cuda.major() && r.version().minor() == cuda.minor())
        .reduce((older, newer) -> newer);
  }

  /** The minimum Linux driver for CUDA release {@code cuda}; see {@link #cudaRelease}. */
  public Optional<Version> minDriverFor(Version cuda) {
    return cudaRelease(cuda).map(CudaRelease::minDriver);
  }

  /** The minor-version-compatibility row of CUDA major {@code cudaMajor}. */
  public Optional<MinorVersionCompat> minorVersionCompat(int cudaMajor) {
    return Optional.ofNullable(mvcByMajor.get(cudaMajor));
  }

  /**
   * The oldest driver that runs any toolkit of CUDA major {@code cudaMajor} (with a limited feature
   * set), e.g. {@code 525.60.13} for 12.
   */
  public Optional<Version> mvcFloor(int cudaMajor) {
    return minorVersionCompat(cudaMajor).map(MinorVersionCompat::minDriver);
  }

  /** All CUDA releases, oldest first. */
  public List<CudaRelease> cudaReleases() {
    return List.copyOf(cudaByVersion.values());
  }

  // ---- Drivers -------------------------------------------------------------------------------

  /** The branch {@code driver} belongs to, e.g. R580 for {@code 580.95.05}. */
  public Optional<DriverBranch> driverBranch(Version driver) {
    return driverBranch(driver.major());
  }

  /** The branch with number {@code number}, e.g. 580. */
  public Optional<DriverBranch> driverBranch(int number) {
    return Optional.ofNullable(branchByNumber.get(number));
  }

  /**
   * The kernel-module flavour a driver installs when nothing chooses one: open from R560 on,
   * proprietary before. Check the GPU with {@link GpuModel.KernelModules#allows} before using it.
   */
  public KernelModule defaultKernelModule(Version driver) {
    return driver.major() >= openModulesDefaultSinceBranch
        ? KernelModule.OPEN
        : KernelModule.PROPRIETARY;
  }

  // ---- GPUs and clouds -----------------------------------------------------------------------

  /**
   * The GPU model named {@code model} (or one of its aliases), ignoring case: "h100" finds H100.
   */
  public Optional<GpuModel> gpu(String model) {
    return Optional.ofNullable(gpuByName.get(model.toLowerCase(Locale.ROOT)));
  }

  /** All GPU models, in file order (oldest architecture first). */
  public List<GpuModel> gpus() {
    return gpus;
  }

  /**
   * Whether {@code count} GPUs of {@code model} in one host sit on an NVSwitch fabric, for hosts
   * that have no instance type to look up (bare metal): yes for eight GPUs of a model that the
   * table's EC2 rows show on NVSwitch (the HGX baseboards), else no.
   */
  public boolean impliedNvswitch(GpuModel model, int count) {
    return count == 8
        && awsInstances().stream()
            .anyMatch(
                a ->
                    a.gpuCount() == 8
                        && a.nvswitch().orElse(false)
                        && gpu(a.gpu())
                            .map(GpuModel::name)
                            .filter(model.name()::equals)
                            .isPresent());
  }

  /**
   * Whether {@code count} GPUs named {@code model} as a bare-metal spec writes it sit on an
   * NVSwitch baseboard: yes for eight GPUs named as an NVSwitch board (h100-sxm, or b200, which
   * comes on no other), no for a name of a board without NVSwitch (h100-pcie) or a model that comes
   * on no NVSwitch board (l4); empty when the name does not say (h100 at eight GPUs: HGX or PCIe).
   */
  public Optional<Boolean> boardNvswitch(String model, int count) {
    Optional<GpuModel> gpu = gpu(model);
    if (gpu.isEmpty()) {
      return Optional.of(false);
    }
    GpuModel g = gpu.get();
    if (g.nvswitchBoards().stream().anyMatch(model::equalsIgnoreCase)) {
      return Optional.of(count == 8);
    }
    if (g.otherBoards().stream().anyMatch(model::equalsIgnoreCase)
        || g.nvswitchBoards().isEmpty()
        || count != 8) {
      return Optional.of(false);
    }
    return Optional.empty();
  }

  /** The EC2 instance type named exactly {@code instanceType}, e.g. {@code p5.48xlarge}. */
  public Optional<AwsInstanceType> awsInstance(String instanceType) {
    return Optional.ofNullable(awsByName.get(instanceType));
  }

  /**
   * Whether EC2 instance type {@code instanceType} supports EFA: a GPU type whose row says so, or
   * one of the other EFA types AWS lists. False for every other type, known or not.
   */
  public boolean efaSupported(String instanceType) {
    return awsInstance(instanceType).map(AwsInstanceType::efa).orElse(false)
        || extras.efaOtherTypes().contains(instanceType);
  }

  /** The instance types EC2 Capacity Blocks for ML offer, and when a block's instances end. */
  public CapacityBlockTypes capacityBlocks() {
    return extras.capacityBlocks();
  }

  /** The pinned AWS EFA device plugin chart and the instance types its DaemonSet runs on. */
  public EfaDevicePluginChart efaDevicePlugin() {
    return extras.efaDevicePlugin();
  }

  /**
   * The table's single-node all-reduce figure for a node of {@code count} {@code gpu} GPUs, where
   * it applies: the figures are for NVSwitch systems of that GPU count only.
   */
  public Optional<AllReduceBandwidth> allReduceBandwidth(String gpu, int count, boolean nvswitch) {
    return allReduceBandwidth(gpu).filter(b -> nvswitch && b.gpus() == count);
  }

  /**
   * The EC2 vCPU quota an instance of {@code instanceType} on {@code market} ({@code on-demand} or
   * {@code spot}) counts against; empty where the table knows none.
   */
  public Optional<Ec2VcpuQuota> vcpuQuota(String instanceType, String market) {
    return extras.vcpuQuotas().stream().filter(q -> q.counts(instanceType, market)).findFirst();
  }

  /** All EC2 instance types in the table. */
  public List<AwsInstanceType> awsInstances() {
    return List.copyOf(awsByName.values());
  }

  /**
   * The GCP machine type {@code machineType}: its exact row, or else the family pattern with the
   * longest matching prefix ({@code a3-highgpu-4g} finds {@code a3-highgpu-*}, which has no
   * accelerator count).
   */
  public Optional<GcpMachineType> gcpMachine(String machineType) {
    GcpMachineType exact = gcpMachineByName.get(machineType);
    if (exact != null && !exact.isPattern()) {
      return Optional.of(exact);
    }
    return gcpPatternsLongestFirst.stream().filter(m -> m.matches(machineType)).findFirst();
  }

  /** All GCP machine-type rows, patterns included. */
  public List<GcpMachineType> gcpMachines() {
    return gcpMachines;
  }

  /** The GCP accelerator type named exactly {@code type}, e.g. {@code nvidia-h100-80gb}. */
  public Optional<GcpAccelerator> gcpAccelerator(String type) {
    return Optional.ofNullable(gcpAcceleratorByType.get(type));
  }

  /** All GCP accelerator types. */
  public List<GcpAccelerator> gcpAccelerators() {
    return List.copyOf(gcpAcceleratorByType.values());
  }

  // ---- Kubernetes components -----------------------------------------------------------------

  /** The GPU Operator release {@code version} ({@code v25.10.0} and {@code 25.10.0} both work). */
  public Optional<GpuOperatorRelease> gpuOperator(Version version) {
    return Optional.ofNullable(operatorByVersion.get(version));
  }

  /** All GPU Operator releases, oldest first. */
  public List<GpuOperatorRelease> gpuOperators() {
    return List.copyOf(operatorByVersion.values());
  }

  /** The Container Toolkit release {@code version}. */
  public Optional<ContainerToolkitRelease> containerToolkit(Version version) {
    return Optional.ofNullable(ctkByVersion.get(version));
  }

  /** All Container Toolkit releases, oldest first. */
  public List<ContainerToolkitRelease> containerToolkitReleases() {
    return List.copyOf(ctkByVersion.values());
  }

  /**
   * The oldest Container Toolkit without known CVEs: the newest release that fixes one ({@code
   * 1.17.4}, CVE-2025-23359). Older versions are a security error.
   */
  public Version containerToolkitSecurityFloor() {
    return ctkSecurityFloor;
  }

  /**
   * The Container Toolkit release from which all its packages ({@code nvidia-container-toolkit},
   * {@code -base}, {@code libnvidia-container-tools}, {@code libnvidia-container1}) must have
   * exactly the same version ({@code 1.18.0}).
   */
  public Version containerToolkitExactPackageMatchSince() {
    return ctkExactPackageMatchSince;
  }

  // ---- Lint facts ----------------------------------------------------------------------------

  /**
   * The month the driver lifecycle data was read. The linter judges end-of-life dates as of this
   * month rather than the clock, so the same spec always gives the same findings.
   */
  public YearMonth lifecycleAsOf() {
    return extras.lifecycleAsOf();
  }

  /** Driver defects the GPU Operator release notes list. */
  public List<DriverKnownIssue> driverKnownIssues() {
    return extras.driverKnownIssues();
  }

  /** The single-node all-reduce bandwidth expected on an NVSwitch system of {@code gpu}. */
  public Optional<AllReduceBandwidth> allReduceBandwidth(String gpu) {
    return Optional.ofNullable(busbwByGpu.get(gpu));
  }

  /** What NCCL accepts in the variables gpugen checks. */
  public NcclFacts nccl() {
    return extras.nccl();
  }

  /** FSx for Lustre limits of deployment type {@code type}, e.g. {@code PERSISTENT_2}. */
  /** The region {@code name} of {@code provider} ({@code aws} or {@code gcp}), if it exists. */
  public Optional<CloudRegion> region(String provider, String name) {
    return Optional.ofNullable(regionByKey.get(provider + ":" + name));
  }

  /** Every region of {@code provider} the table lists, in table order. */
  public List<CloudRegion> regions(String provider) {
    return regionByKey.values().stream().filter(r -> r.provider().equals(provider)).toList();
  }

  public Optional<LustreDeployment> lustreDeployment(String type) {
    return Optional.ofNullable(lustreByType.get(type));
  }

  // ---- Whole table ---------------------------------------------------------------------------

  /** Every row of every kind, for checks over the whole table (sources, keys). */
  public List<CompatRow> rows() {
    List<CompatRow> rows = new ArrayList<>();
    rows.addAll(cudaByVersion.values());
    rows.addAll(mvcByMajor.values());
    rows.addAll(branchByNumber.values());
    rows.addAll(gpus);
    rows.addAll(awsByName.values());
    rows.addAll(gcpAcceleratorByType.values());
    rows.addAll(gcpMachines);
    rows.addAll(operatorByVersion.values());
    rows.addAll(ctkByVersion.values());
    rows.addAll(extras.driverKnownIssues());
    rows.addAll(busbwByGpu.values());
    rows.add(extras.nccl());
    rows.add(extras.efaDevicePlugin());
    rows.add(extras.capacityBlocks());
    rows.addAll(lustreByType.values());
    rows.addAll(regionByKey.values());
    return List.copyOf(rows);
  }

  private static <K, R extends CompatRow> void index(
      Checker check, String section, List<R> rows, Function<R, K> key, Map<K, R> into) {
    for (R row : rows) {
      R clash = into.putIfAbsent(key.apply(row), row);
      if (clash != null) {
        throw check.error(section, row.key(), "same key as row " + clash.key());
      }
    }
  }

  /** Builds load errors that name the file, section and row. */
  private record Checker(String label) {
    InternalFailure error(String section, String row, String message) {
      return new InternalFailure(label + ": " + section + "[" + row + "]: " + message);
    }

    void branch(Map<Integer, DriverBranch> branches, String section, String row, int number) {
      if (!branches.containsKey(number)) {
        throw error(
            section, row, "unknown driver branch R" + number + "; add it to driver_branches");
      }
    }

    void gpu(Map<String, GpuModel> gpus, String section, String row, String gpu) {
      GpuModel model = gpus.get(gpu.toLowerCase(Locale.ROOT));
      if (model == null || !model.name().equals(gpu)) {
        throw error(section, row, "unknown GPU \"" + gpu + "\"; use a name from gpus");
      }
    }
  }
}
