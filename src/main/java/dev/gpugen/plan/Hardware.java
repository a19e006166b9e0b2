package dev.gpugen.plan;

import dev.gpugen.compat.AllReduceBandwidth;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.Version;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the compatibility table knows about one pool's machines: the EC2 instance type or GCP
 * machine type (or, on bare metal, what the spec declares), and through it the GPU model, count,
 * NVSwitch and EFA. Everything is empty when the table does not know the type; lint rules then stay
 * quiet and {@code compat-unknown} says so.
 *
 * @param aws the EC2 instance type row (provider aws)
 * @param gcp the GCP machine type row (provider gcp)
 * @param gpu the GPU model, when the table knows it
 * @param gpuName the GPU model's name; as declared when the table does not know a static pool's
 *     model; empty when unknown
 * @param gpuCount GPUs per node, where known
 * @param nvswitch true only when the table (or a static pool's declaration) says so: unknown is not
 *     a yes
 * @param allReduce the table's single-node all-reduce figure for this node (its figures are for
 *     NVSwitch systems of their GPU count only); empty elsewhere
 * @param nvswitchUnstated a static pool whose model comes with and without NVSwitch at its GPU
 *     count (h100 at eight: HGX or PCIe) and whose spec does not say which (the linter refuses it;
 *     {@code nvswitch} is then the HGX guess)
 */
public record Hardware(
    Optional<AwsInstanceType> aws,
    Optional<GcpMachineType> gcp,
    Optional<GpuModel> gpu,
    String gpuName,
    OptionalInt gpuCount,
    boolean nvswitch,
    Optional<AllReduceBandwidth> allReduce,
    boolean nvswitchUnstated) {

  private Hardware(
      Optional<AwsInstanceType> aws,
      Optional<GcpMachineType> gcp,
      Optional<GpuModel> gpu,
      String gpuName,
      OptionalInt gpuCount,
      boolean nvswitch,
      CompatTable table) {
    this(aws, gcp, gpu, gpuName, gpuCount, nvswitch, table, false);
  }

  private Hardware(
      Optional<AwsInstanceType> aws,
      Optional<GcpMachineType> gcp,
      Optional<GpuModel> gpu,
      String gpuName,
      OptionalInt gpuCount,
      boolean nvswitch,
      CompatTable table,
      boolean nvswitchUnstated) {
    this(
        aws,
        gcp,
        gpu,
        gpuName,
        gpuCount,
        nvswitch,
        gpu.flatMap(g -> table.allReduceBandwidth(g.name(), gpuCount.orElse(0), nvswitch)),
        nvswitchUnstated);
  }

  static Hardware of(Provider provider, ClusterSpec.Pool pool, CompatTable table) {
    if (provider == Provider.STATIC) {
      if (pool.gpu().isEmpty()) {
        return new Hardware(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            "",
            OptionalInt.empty(),
            false,
            table);
      }
      // A static pool: the spec says what the hosts have, or the model name says the board.
      ClusterSpec.StaticGpu declared = pool.gpu().get();
      Optional<GpuModel> model = table.gpu(declared.model());
      Optional<Boolean> board = table.boardNvswitch(declared.model(), declared.count());
      boolean unstated = declared.nvswitch().isEmpty() && board.isEmpty();
      return new Hardware(
          Optional.empty(),
          Optional.empty(),
          model,
          model.map(GpuModel::name).orElse(declared.model()),
          OptionalInt.of(declared.count()),
          declared.nvswitch().orElse(board.orElse(true)),
          table,
          unstated);
    }
    if (provider == Provider.GCP) {
      Optional<GcpMachineType> gcp = table.gcpMachine(pool.instanceType());
      if (gcp.isEmpty()) {
        return new Hardware(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            "",
            OptionalInt.empty(),
            false,
            table);
      }
      Optional<GpuModel> model =
          table.gcpAccelerator(gcp.get().accelerator()).flatMap(a -> table.gpu(a.gpu()));
      OptionalInt count = gcp.get().count();
      return new Hardware(
          Optional.empty(),
          gcp,
          model,
          model.map(GpuModel::name).orElse(""),
          count,
          model.map(m -> table.impliedNvswitch(m, count.orElse(0))).orElse(false),
          table);
    }
    Optional<AwsInstanceType> aws = table.awsInstance(pool.instanceType());
    return new Hardware(
        aws,
        Optional.empty(),
        aws.flatMap(a -> table.gpu(a.gpu())),
        aws.map(AwsInstanceType::gpu).orElse(""),
        aws.map(a -> OptionalInt.of(a.gpuCount())).orElse(OptionalInt.empty()),
        aws.flatMap(AwsInstanceType::nvswitch).orElse(false),
        table);
  }

  /**
   * The bus-bandwidth threshold a pool of these nodes gets when the spec sets none: the healthy
   * share of the table's figure ({@link AllReduceBandwidth#minHealthyGbps()}); empty without one.
   */
  public OptionalInt defaultMinBusBandwidthGbps() {
    return allReduce.map(b -> OptionalInt.of(b.minHealthyGbps())).orElse(OptionalInt.empty());
  }

  /**
   * Whether the node's NVSwitches are fourth-generation (HGX B200/B300, NVLink 5), whose Fabric
   * Manager needs the NVLink Subnet Manager (NVIDIA Fabric Manager user guide, "Systems Using
   * Fourth Generation NVSwitches"): Blackwell GPUs on an NVSwitch baseboard.
   */
  public boolean nvlinkSubnetManager() {
    return nvswitch
        && gpu.map(g -> g.architecture() == GpuModel.Architecture.BLACKWELL).orElse(false);
  }

  /**
   * Whether the GPUs report their NVSwitch fabric registration (nvidia-smi's fabric.state and
   * fabric.status, which Fabric Manager completes): Hopper and Blackwell GPUs on NVSwitch. A100
   * systems (second-generation NVSwitch) report none, so play 05 cannot judge Fabric Manager there.
   */
  public boolean fabricStateReported() {
    return nvswitch
        && gpu.map(
                g ->
                    g.architecture() == GpuModel.Architecture.HOPPER
                        || g.architecture() == GpuModel.Architecture.BLACKWELL)
            .orElse(false);
  }

  /** GPUs per node; 0 when unknown. */
  public int gpus() {
    return gpuCount.orElse(0);
  }

  /**
   * The NVMe instance-store volumes of the node (AWS), none when the table does not know the type
   * or it has none.
   */
  public AwsInstanceType.InstanceStore instanceStore() {
    return aws.map(AwsInstanceType::instanceStore).orElse(new AwsInstanceType.InstanceStore(0, 0));
  }

  /** Network cards per node (AWS), 1 when unknown. */
  public int networkCards() {
    return aws.map(AwsInstanceType::networkCards).orElse(1);
  }

  /** The GPU's CUDA compute capability (e.g. 9.0); empty string when unknown. */
  public String computeCapability() {
    return gpu.flatMap(GpuModel::computeCapability).map(Version::toString).orElse("");
  }
}
