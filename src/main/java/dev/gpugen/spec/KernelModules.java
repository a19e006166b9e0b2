package dev.gpugen.spec;

/**
 * The NVIDIA kernel module flavour ({@code software.kernelModules}): {@code open} or {@code
 * proprietary} as NVIDIA ships them, {@code auto} for gpugen's choice per GPU (the open modules
 * need GSP, Turing and newer:
 * https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html). The same
 * words as the GPU Operator's {@code driver.kernelModuleType}
 * (https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html).
 */
public enum KernelModules implements Keyword {
  AUTO("auto"),
  OPEN("open"),
  PROPRIETARY("proprietary");

  private final String spelling;

  KernelModules(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
