package dev.gpugen.spec;

/**
 * The pod network of a kubeadm cluster ({@code kubernetes.cni}), installed from its Helm chart:
 * Cilium (https://docs.cilium.io/en/stable/installation/k8s-install-helm/) or Calico
 * (https://docs.tigera.io/calico/latest/getting-started/kubernetes/helm).
 */
public enum Cni implements Keyword {
  CILIUM("cilium"),
  CALICO("calico");

  private final String spelling;

  Cni(String spelling) {
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
