package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;

/** The group variables that point the node plays' downloads at the spec's mirrors. */
final class MirrorVars {
  private MirrorVars() {}

  /** Every variable {@link #of} may set, in the order group_vars/all.yml lists them. */
  static final List<String> NAMES =
      List.of(
          "prerequisites_ubuntu_mirror_url",
          "nvidia_driver_repo_base_url",
          "container_runtime_repo_base_url",
          "kubeadm_repo_base_url",
          "lustre_client_repo_url",
          "lustre_client_key_url",
          "nccl_network_files_mirror_url",
          "gpu_operator_chart_repo_url",
          "gpu_operator_efa_chart_repo_url",
          "kubeadm_cni_repo_url",
          "validation_gpu_burn_repo",
          "validation_nccl_tests_repo");

  /**
   * A role variable that points a download at the spec's mirror.
   *
   * @param name the role variable (the role's default names the public upstream)
   * @param value the URL on the mirror
   * @param source the mirrors: key it comes from
   */
  public record MirrorVar(String name, String value, String source) {}

  /**
   * The role variables that redirect the node plays' downloads to the spec's mirrors: only for
   * sources the render uses (the linter reports a mirror set for any other), so a role's static
   * default keeps its public upstream wherever no mirror is set. The layout under each mirror is
   * the upstream's (docs/air-gapped.md).
   */
  static List<MirrorVar> of(ClusterPlan plan) {
    dev.gpugen.plan.Sources s = plan.sources();
    ClusterSpec spec = plan.spec();
    List<MirrorVar> out = new ArrayList<>();
    String ubuntu = s.usedMirror(dev.gpugen.plan.Source.UBUNTU);
    if (!ubuntu.isEmpty()) {
      out.add(new MirrorVar("prerequisites_ubuntu_mirror_url", ubuntu, "ubuntu"));
    }
    String cuda = s.usedMirror(dev.gpugen.plan.Source.CUDA);
    if (!cuda.isEmpty()) {
      out.add(new MirrorVar("nvidia_driver_repo_base_url", cuda, "cuda"));
    }
    String ctk = s.usedMirror(dev.gpugen.plan.Source.NVIDIA_CONTAINER_TOOLKIT);
    if (!ctk.isEmpty()) {
      out.add(new MirrorVar("container_runtime_repo_base_url", ctk, "nvidiaContainerToolkit"));
    }
    String k8s = s.usedMirror(dev.gpugen.plan.Source.KUBERNETES);
    if (!k8s.isEmpty()) {
      // pkgs.k8s.io's path of the stable channel; the role appends /vMINOR/deb/.
      out.add(new MirrorVar("kubeadm_repo_base_url", k8s + "/core:/stable:", "kubernetes"));
    }
    String lustre = s.usedMirror(dev.gpugen.plan.Source.LUSTRE);
    if (!lustre.isEmpty()) {
      out.add(new MirrorVar("lustre_client_repo_url", lustre + "/ubuntu", "lustre"));
    }
    String files = s.usedMirror(dev.gpugen.plan.Source.FILES);
    if (!files.isEmpty() && plan.lustre().isPresent()) {
      out.add(
          new MirrorVar("lustre_client_key_url", files + "/fsx-ubuntu-public-key.asc", "files"));
    }
    if (!files.isEmpty() && plan.efaPools()) {
      out.add(new MirrorVar("nccl_network_files_mirror_url", files, "files"));
    }
    String operatorCharts = s.usedMirror(dev.gpugen.plan.Source.HELM_GPU_OPERATOR);
    if (!operatorCharts.isEmpty() && spec.gitops().isEmpty()) {
      out.add(new MirrorVar("gpu_operator_chart_repo_url", operatorCharts, "helm.gpuOperator"));
    }
    String eksCharts = s.usedMirror(dev.gpugen.plan.Source.HELM_EKS_CHARTS);
    if (!eksCharts.isEmpty()) {
      out.add(new MirrorVar("gpu_operator_efa_chart_repo_url", eksCharts, "helm.eksCharts"));
    }
    for (dev.gpugen.plan.Source cni :
        List.of(dev.gpugen.plan.Source.HELM_CILIUM, dev.gpugen.plan.Source.HELM_TIGERA)) {
      String url = s.usedMirror(cni);
      if (!url.isEmpty()) {
        out.add(new MirrorVar("kubeadm_cni_repo_url", url, cni.key()));
      }
    }
    String git = s.usedMirror(dev.gpugen.plan.Source.GIT);
    if (!git.isEmpty()) {
      out.add(new MirrorVar("validation_gpu_burn_repo", git + "/gpu-burn.git", "git"));
      out.add(new MirrorVar("validation_nccl_tests_repo", git + "/nccl-tests.git", "git"));
    }
    return out;
  }
}
