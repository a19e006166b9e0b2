package dev.gpugen.spec;

/**
 * Who runs the Kubernetes control plane ({@code kubernetes.distribution}): {@code eks} is Amazon
 * EKS (https://docs.aws.amazon.com/eks/latest/userguide/what-is-eks.html), {@code kubeadm} is a
 * control plane Ansible bootstraps with kubeadm
 * (https://kubernetes.io/docs/reference/setup-tools/kubeadm/), {@code existing} is the cluster the
 * user's kubeconfig names.
 */
public enum Distribution implements Keyword {
  EKS("eks"),
  KUBEADM("kubeadm"),
  EXISTING("existing");

  private final String spelling;

  Distribution(String spelling) {
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
