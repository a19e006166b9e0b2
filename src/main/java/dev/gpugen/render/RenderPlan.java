package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.plan.ValidationState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which files a spec renders, each from which source: decided here, in Java, in one place. Sources
 * are named after their place under {@code templates/}: a name ending in {@code .ftl} is a
 * FreeMarker template, any other name is a static file copied verbatim behind the generated-file
 * header. One method per target: Terraform for AWS or GKE, the Ansible tree that configures nodes
 * (AWS, bare metal) or checks a GKE cluster, and the ArgoCD hand-off.
 */
final class RenderPlan {
  private RenderPlan() {}

  /**
   * One output file.
   *
   * @param path where it goes, relative to the output folder
   * @param source its name under {@code templates/}
   * @param pool the pool it is rendered for (per-pool files), else empty
   */
  record Output(String path, String source, Optional<PoolPlan> pool) {
    boolean template() {
      return source.endsWith(Templates.SUFFIX);
    }
  }

  /** The roles that configure a node, in play order. */
  static final List<String> NODE_ROLES =
      List.of(
          "prerequisites",
          "nvidia_driver",
          "container_runtime",
          "gpu_operator",
          "nccl_network",
          "validation");

  static List<Output> of(ClusterPlan plan, Templates templates) {
    Builder b = new Builder(plan, templates);
    if (plan.aws()) {
      terraformAws(b, plan);
      ansibleNodes(b, plan);
    } else if (plan.gke()) {
      terraformGke(b, plan);
      ansibleGke(b);
    } else {
      ansibleNodes(b, plan);
    }
    ArgoCdView argocd = new ArgoCdView(plan);
    if (argocd.enabled()) {
      argocd(b, argocd);
    }
    return b.out;
  }

  /**
   * Terraform for AWS: the same .tf files for every spec (a feature a spec does not use is off by
   * its variables), the spec's values in terraform.tfvars.json, and the moved blocks of its pools.
   */
  private static void terraformAws(Builder b, ClusterPlan plan) {
    for (String f :
        List.of(
            ".gitignore",
            "eks.tf",
            "iam.tf",
            "kubeadm.tf",
            "modules/pool/main.tf",
            "modules/pool/outputs.tf",
            "modules/pool/variables.tf",
            "modules/pool/versions.tf",
            "moved.tf",
            "network.tf",
            "outputs.tf",
            "pools.tf",
            "providers.tf",
            "pull.tf",
            "ssm.tf",
            "storage.tf",
            "terraform.tfvars.json",
            "variables.tf",
            "versions.tf")) {
      b.file("terraform/" + f);
    }
    backend(b, plan);
    if (plan.pullMode()) {
      b.perPool("terraform/user-data-{pool}.sh");
    }
  }

  private static void terraformGke(Builder b, ClusterPlan plan) {
    for (String f :
        List.of(
            ".gitignore",
            "gke-cluster.tf",
            "gke-gpu-operator.tf",
            "gke-moved.tf",
            "gke-nccl.tf",
            "gke-node-pools.tf",
            "gke-outputs.tf",
            "gke-variables.tf",
            "gke-versions.tf",
            "terraform.tfvars.json")) {
      b.file("terraform/" + f);
    }
    backend(b, plan);
  }

  private static void backend(Builder b, ClusterPlan plan) {
    if (plan.spec().terraform().s3Backend().isPresent()) {
      b.file("terraform/backend.tf");
    }
  }

  /** What every Ansible tree has: settings, collections, variables. */
  private static void ansibleCommon(Builder b) {
    for (String f :
        List.of(
            ".ansible-lint",
            ".gitignore",
            "ansible.cfg",
            "requirements.yml",
            "group_vars/all.yml")) {
      b.file("ansible/" + f);
    }
    b.perPool("ansible/group_vars/{group}.yml", "ansible/group_vars/pool_{pool}.yml");
  }

  private static void ansibleNodes(Builder b, ClusterPlan plan) {
    ansibleCommon(b);
    for (String f :
        List.of(
            "00-prerequisites.yml",
            "01-nvidia-driver.yml",
            "02-container-runtime.yml",
            "03-gpu-operator.yml",
            "04-network-tuning.yml",
            "05-validation.yml",
            "site.yml",
            "upgrade-driver.yml")) {
      b.file("ansible/" + f);
    }
    if (new AnsibleView(plan).kubeadm()) {
      // Play 02b bootstraps the cluster with kubeadm and joins the GPU nodes (static hosts, or
      // the control-plane instances kubeadm.tf creates on AWS).
      b.file("ansible/02b-kubernetes.yml");
      b.role("kubeadm");
    }
    if (plan.spec().kubernetes().isPresent()) {
      // Play 03's pre-flight and play 05's scheduler checks of the cluster the spec names.
      b.role("kubernetes_checks");
    }
    if (ValidationState.applies(plan)) {
      // Play 05 labels each node with its verdict and taints a failing one; play 03 gates the
      // never-validated nodes of pools with validation.gateScheduling.
      b.role("validation_scheduling");
    }
    if (plan.lustre().isPresent()) {
      // Play 00 installs the Lustre client and mounts the file system; play 05 checks the mount.
      b.role("lustre_client");
    }
    AnsibleView view = new AnsibleView(plan);
    if (view.preflight()) {
      // Play 00 first checks the HCAs, PCIe ACS and the IOMMU of InfiniBand/RoCE hosts.
      b.role("fabric_preflight");
    }
    if (view.docaOfed()) {
      // Play 00 installs DOCA-OFED before play 01 builds the driver (and nvidia-peermem).
      b.role("doca_ofed");
    }
    if (view.hostTuning()) {
      // Play 00 sets the CPU governor and hugepages, play 01 the GPU application clocks.
      b.role("host_tuning");
    }
    if (plan.rdmaDevicePlugin()) {
      // Play 05 runs NCCL inside a pod that requests the RDMA shared device plugin's resource.
      b.role("rdma_checks");
    }
    if (view.localNvme()) {
      // Play 00 builds the RAID 0 array of the instance store on the pools that ask for it.
      b.role("local_nvme");
    }
    for (String role : NODE_ROLES) {
      if (role.equals("gpu_operator") && plan.spec().gitops().isPresent()) {
        // With GitOps, ArgoCD installs the chart: play 03 needs no values of its own.
        b.role(role, "templates/values.yaml.j2", "templates/time-slicing-config.yaml.j2");
      } else {
        b.role(role);
      }
    }
    if (plan.aws()) {
      b.file("ansible/gpugen-inventory");
      b.file("ansible/gpugen-inventory.json");
    } else {
      b.file("ansible/inventory.yml");
    }
    if (plan.pullMode()) {
      b.perPool("ansible/pull-inventory-{pool}.yml");
    }
  }

  /** GKE: GKE and Terraform own the nodes; the plays check the cluster through its API. */
  private static void ansibleGke(Builder b) {
    ansibleCommon(b);
    for (String f :
        List.of(
            "03-gpu-operator.yml",
            "04-network-tuning.yml",
            "05-validation.yml",
            "inventory.yml",
            "site.yml")) {
      b.from("ansible/" + f, "ansible/gke/" + f);
    }
    b.role("gke_checks");
  }

  private static void argocd(Builder b, ArgoCdView argocd) {
    b.file("argocd/root-application.yaml");
    b.file("argocd/apps/nccl-config.yaml");
    b.file("argocd/manifests/nccl-config/nccl-config.yaml");
    if (argocd.ncclDaemonSet()) {
      b.file("argocd/manifests/nccl-config/nccl-conf-daemonset.yaml");
    }
    if (argocd.timeSlicing()) {
      b.file("argocd/apps/device-plugin-config.yaml");
      b.file("argocd/manifests/device-plugin-config/time-slicing-config.yaml");
    }
    if (argocd.operator()) {
      b.file("argocd/apps/gpu-operator.yaml");
    }
  }

  /** Resolves output paths to sources: a template if there is one, else a static file. */
  private static final class Builder {
    private final ClusterPlan plan;
    private final Templates templates;
    private final List<Output> out = new ArrayList<>();

    Builder(ClusterPlan plan, Templates templates) {
      this.plan = plan;
      this.templates = templates;
    }

    void file(String path) {
      from(path, path);
    }

    void from(String path, String source) {
      out.add(new Output(path, templates.source(source), Optional.empty()));
    }

    /** A file per pool: {@code {pool}} in the path becomes the pool's identifier. */
    void perPool(String path) {
      perPool(path, path);
    }

    /**
     * A file per pool from the template {@code template}: {@code {pool}} becomes the pool's
     * identifier, {@code {group}} its Ansible group (the plan's name for it).
     */
    void perPool(String path, String template) {
      String source = templates.source(template);
      for (PoolPlan p : plan.pools()) {
        out.add(
            new Output(
                path.replace("{pool}", p.tfPrefix()).replace("{group}", p.group()),
                source,
                Optional.of(p)));
      }
    }

    /** Every file of a role's folder, but those in {@code leaveOut} (paths inside the role). */
    void role(String name, String... leaveOut) {
      String dir = "ansible/roles/" + name + "/";
      List<String> skip = List.of(leaveOut);
      for (String source : templates.names()) {
        String path = Templates.outputPathOf(source);
        if (path.startsWith(dir) && !skip.contains(path.substring(dir.length()))) {
          file(path);
        }
      }
    }
  }
}
