package dev.gpugen.spec;

/**
 * Which driver GKE installs with {@code gpuDriver: gke} ({@code cloud.gke.gpuDriverVersion}), as
 * gcloud's {@code gpu-driver-version} names it: {@code default}, the node image's default driver,
 * or {@code latest}, the newest driver the node image offers
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#installing_drivers).
 */
public enum GkeDriverVersion implements Keyword {
  DEFAULT("default"),
  LATEST("latest");

  private final String spelling;

  GkeDriverVersion(String spelling) {
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
