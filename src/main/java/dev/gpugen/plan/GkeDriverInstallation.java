package dev.gpugen.plan;

/**
 * The {@code gpu_driver_installation_config.gpu_driver_version} gpugen renders for every GKE GPU
 * node pool: {@code INSTALLATION_DISABLED} when the GPU Operator installs software.driver ({@code
 * gpuDriver: operator}), {@code DEFAULT} or {@code LATEST} when GKE installs the default or the
 * newest driver of the node image ({@code gpuDriver: gke} and {@code gpuDriverVersion}). Source:
 * https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#installing_drivers
 */
public enum GkeDriverInstallation {
  INSTALLATION_DISABLED,
  DEFAULT,
  LATEST
}
