package dev.gpugen.render;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.compat.KernelModule;
import dev.gpugen.compat.Version;
import dev.gpugen.spec.ClusterSpec;
import java.util.Locale;
import java.util.Optional;

/**
 * What the knowledge base says about a pool's hardware, resolved once for every view: GPU model and
 * count, NVSwitch (Fabric Manager), EFA interfaces, and the kernel-module flavour when the spec
 * says {@code auto}.
 *
 * @param gpuModel e.g. H100; empty string when the instance type is not in the table
 * @param nvswitch true only when the table says so (unknown is not a yes)
 * @param kernelModules open or proprietary
 * @param computeCapability the GPU's CUDA compute capability (e.g. 9.0); empty string when unknown
 */
public record PoolFacts(
    String gpuModel,
    int gpuCount,
    boolean nvswitch,
    int efaInterfaces,
    String kernelModules,
    String computeCapability) {

  static PoolFacts of(ClusterSpec.Pool pool) {
    CompatTable table = CompatTable.load();
    if (pool.gpu().isPresent()) {
      // A static pool: the spec says what the hosts have.
      ClusterSpec.StaticGpu declared = pool.gpu().get();
      Optional<GpuModel> model = table.gpu(declared.model());
      return new PoolFacts(
          model.map(GpuModel::name).orElse(declared.model()),
          declared.count(),
          declared
              .nvswitch()
              .orElseGet(
                  () -> model.map(m -> table.impliedNvswitch(m, declared.count())).orElse(false)),
          0,
          kernelModules(pool.software(), model, table),
          model.flatMap(GpuModel::computeCapability).map(Version::toString).orElse(""));
    }
    Optional<GcpMachineType> gcp = table.gcpMachine(pool.instanceType());
    if (gcp.isPresent()) {
      Optional<GpuModel> model =
          table.gcpAccelerator(gcp.get().accelerator()).flatMap(a -> table.gpu(a.gpu()));
      int count = gcp.get().count().orElse(0);
      return new PoolFacts(
          model.map(GpuModel::name).orElse(""),
          count,
          model.map(m -> table.impliedNvswitch(m, count)).orElse(false),
          0,
          kernelModules(pool.software(), model, table),
          model.flatMap(GpuModel::computeCapability).map(Version::toString).orElse(""));
    }
    Optional<AwsInstanceType> aws = table.awsInstance(pool.instanceType());
    Optional<GpuModel> gpu = aws.flatMap(a -> table.gpu(a.gpu()));
    return new PoolFacts(
        aws.map(AwsInstanceType::gpu).orElse(""),
        aws.map(AwsInstanceType::gpuCount).orElse(0),
        aws.flatMap(AwsInstanceType::nvswitch).orElse(false),
        aws.map(AwsInstanceType::efaInterfaces).orElse(0),
        kernelModules(pool.software(), gpu, table),
        gpu.flatMap(GpuModel::computeCapability).map(Version::toString).orElse(""));
  }

  /**
   * The bus-bandwidth threshold a pool gets when the spec sets none: the healthy share of the
   * table's single-node all-reduce figure for its GPUs ({@link
   * dev.gpugen.compat.AllReduceBandwidth#minHealthyGbps()}); empty where the table has no figure.
   */
  public java.util.OptionalInt defaultMinBusBandwidthGbps() {
    return CompatTable.load()
        .allReduceBandwidth(gpuModel, gpuCount, nvswitch)
        .map(b -> java.util.OptionalInt.of(b.minHealthyGbps()))
        .orElse(java.util.OptionalInt.empty());
  }

  private static String kernelModules(
      ClusterSpec.Software sw, Optional<GpuModel> gpu, CompatTable table) {
    if (!sw.kernelModules().equals("auto")) {
      return sw.kernelModules();
    }
    KernelModule flavour =
        gpu.map(
                g ->
                    switch (g.kernelModules()) {
                      case OPEN_ONLY -> KernelModule.OPEN;
                      case PROPRIETARY_ONLY -> KernelModule.PROPRIETARY;
                      case OPEN_OR_PROPRIETARY ->
                          table.defaultKernelModule(Version.parse(sw.driver()));
                    })
            .orElseGet(() -> table.defaultKernelModule(Version.parse(sw.driver())));
    return flavour.name().toLowerCase(Locale.ROOT);
  }
}
