package dev.gpugen.spec;

/**
 * Who installs a GKE node pool's GPU driver ({@code cloud.gke.gpuDriver}): {@code gke} lets GKE
 * install its default driver, {@code operator} disables GKE's installation so the NVIDIA GPU
 * Operator installs it
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#create-gpu-pool-auto-drivers,
 * https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/google-gke.html).
 */
public enum GpuDriver implements Keyword {
  OPERATOR("operator"),
  GKE("gke");

  private final String spelling;

  GpuDriver(String spelling) {
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
