package dev.gpugen.render;

import dev.gpugen.plan.PoolPlan;

/**
 * A pool's hardware facts as the Ansible templates name them; a projection of {@link PoolPlan},
 * which derives them.
 *
 * @param gpuModel e.g. H100; empty string when the instance type is not in the table
 * @param nvswitch true only when the table says so (unknown is not a yes)
 * @param nvlsm whether Fabric Manager needs the NVLink Subnet Manager (fourth-generation NVSwitch)
 * @param fabricState whether play 05 checks the GPUs' fabric state (Fabric Manager's work)
 * @param kernelModules open or proprietary
 * @param computeCapability the GPU's CUDA compute capability (e.g. 9.0); empty string when unknown
 */
public record PoolFacts(
    String gpuModel,
    int gpuCount,
    boolean nvswitch,
    boolean nvlsm,
    boolean fabricState,
    int efaInterfaces,
    String kernelModules,
    String computeCapability) {

  static PoolFacts of(PoolPlan p) {
    return new PoolFacts(
        p.hardware().gpuName(),
        p.hardware().gpus(),
        p.hardware().nvswitch(),
        p.hardware().nvlinkSubnetManager(),
        p.hardware().fabricStateReported(),
        p.efaInterfaces(),
        p.kernelModules(),
        p.hardware().computeCapability());
  }
}
