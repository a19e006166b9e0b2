package dev.gpugen.spec.yaml;

import dev.gpugen.spec.AnsibleMode;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Ansible;
import dev.gpugen.spec.ClusterSpec.ArgoCd;
import dev.gpugen.spec.ClusterSpec.Autoscaling;
import dev.gpugen.spec.ClusterSpec.Bastion;
import dev.gpugen.spec.ClusterSpec.Cloud;
import dev.gpugen.spec.ClusterSpec.Connection;
import dev.gpugen.spec.ClusterSpec.DevicePlugin;
import dev.gpugen.spec.ClusterSpec.GitOps;
import dev.gpugen.spec.ClusterSpec.Gke;
import dev.gpugen.spec.ClusterSpec.GpuClocks;
import dev.gpugen.spec.ClusterSpec.GpuOperator;
import dev.gpugen.spec.ClusterSpec.Host;
import dev.gpugen.spec.ClusterSpec.Imds;
import dev.gpugen.spec.ClusterSpec.Kernel;
import dev.gpugen.spec.ClusterSpec.Kubernetes;
import dev.gpugen.spec.ClusterSpec.Lint;
import dev.gpugen.spec.ClusterSpec.LocalNvme;
import dev.gpugen.spec.ClusterSpec.Lustre;
import dev.gpugen.spec.ClusterSpec.Metadata;
import dev.gpugen.spec.ClusterSpec.Nccl;
import dev.gpugen.spec.ClusterSpec.Network;
import dev.gpugen.spec.ClusterSpec.Pool;
import dev.gpugen.spec.ClusterSpec.Pull;
import dev.gpugen.spec.ClusterSpec.Rdma;
import dev.gpugen.spec.ClusterSpec.RootVolume;
import dev.gpugen.spec.ClusterSpec.S3Backend;
import dev.gpugen.spec.ClusterSpec.Software;
import dev.gpugen.spec.ClusterSpec.StaticGpu;
import dev.gpugen.spec.ClusterSpec.Storage;
import dev.gpugen.spec.ClusterSpec.SystemPool;
import dev.gpugen.spec.ClusterSpec.Taint;
import dev.gpugen.spec.ClusterSpec.Terraform;
import dev.gpugen.spec.ClusterSpec.Tuning;
import dev.gpugen.spec.ClusterSpec.Validation;
import dev.gpugen.spec.Cni;
import dev.gpugen.spec.ConnectionMethod;
import dev.gpugen.spec.Distribution;
import dev.gpugen.spec.EndpointAccess;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.GkeDriverVersion;
import dev.gpugen.spec.GpuDriver;
import dev.gpugen.spec.HostAddress;
import dev.gpugen.spec.HttpTokens;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.KernelModules;
import dev.gpugen.spec.Keyword;
import dev.gpugen.spec.Market;
import dev.gpugen.spec.Placement;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.PullSource;
import dev.gpugen.spec.ReleaseChannel;
import dev.gpugen.spec.yaml.Shape.Bool;
import dev.gpugen.spec.yaml.Shape.Derived;
import dev.gpugen.spec.yaml.Shape.Enum;
import dev.gpugen.spec.yaml.Shape.Field;
import dev.gpugen.spec.yaml.Shape.Int;
import dev.gpugen.spec.yaml.Shape.ListOf;
import dev.gpugen.spec.yaml.Shape.MapOf;
import dev.gpugen.spec.yaml.Shape.Num;
import dev.gpugen.spec.yaml.Shape.Obj;
import dev.gpugen.spec.yaml.Shape.Str;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The gpugen/v1 spec grammar. Every value that reaches a generated file is constrained here to a
 * charset that is safe in HCL, YAML, Jinja, shell and /etc files, so escaping downstream is a
 * second line of defence rather than the only one.
 */
public final class SpecShape {
  private SpecShape() {}

  // Windows reserves these file names (in any case, with any extension); names become folders.
  private static final String NOT_RESERVED = "^(?!(con|prn|aux|nul|com[1-9]|lpt[1-9])$)";

  // Names become resource names, tags, file names and Ansible group names: lower case, no dots,
  // no path separators, bounded so "<cluster>-<pool>-<index>" fits AWS's 255-char Name tag.
  static final Str CLUSTER_NAME =
      str(
          NOT_RESERVED + "[a-z][a-z0-9-]{0,38}$",
          "a name of lower-case letters, digits and '-' (1-39 chars, starting with a letter; not con, nul, aux...)",
          39);
  static final Str POOL_NAME =
      str(
          NOT_RESERVED + "[a-z][a-z0-9-]{0,30}$",
          "a name of lower-case letters, digits and '-' (1-31 chars, starting with a letter; not con, nul, aux...)",
          31);
  static final Str ENV_NAME =
      str(
          NOT_RESERVED + "[a-z][a-z0-9-]{0,30}$",
          "an environment name of lower-case letters, digits and '-' (1-31 chars)",
          31);
  // AWS regions have a '-' before the number (us-east-1), GCP regions do not (us-central1).
  static final Str REGION =
      str(
          "^[a-z]{2,16}(-[a-z]+)+-?[0-9]{1,2}$",
          "a region like us-east-1, us-central1 or europe-west4",
          32);
  static final Str ZONE =
      str(
          "^[a-z]{2,16}(-[a-z]+)+-?[0-9]{1,2}([a-z]|-[a-z]|(-[a-z0-9]+)+)$",
          "a zone like us-east-1a or us-central1-a",
          40);
  static final Str KEY_PAIR =
      str(
          "^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$",
          "an EC2 key pair name (letters, digits, '.', '_', '-')",
          255);
  static final Str IMAGE =
      str(
          "^(ubuntu-22\\.04|ubuntu-24\\.04|ami-[0-9a-f]{8,17})$",
          "ubuntu-22.04, ubuntu-24.04 or an ami-... id",
          21);
  static final Str CIDR =
      str(
          "^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$",
          "an IPv4 CIDR like 10.42.0.0/16", 18);
  static final Str VPC_ID = str("^vpc-[0-9a-f]{8,17}$", "a VPC id like vpc-0abc12345def67890", 21);
  static final Str SUBNET_ID =
      str("^subnet-[0-9a-f]{8,17}$", "a subnet id like subnet-0abc12345def67890", 24);
  static final Str BUCKET =
      str(
          "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
          "an S3 bucket name (3-63 chars: a-z, 0-9, '.', '-')",
          63);
  static final Str ABS_PATH =
      str(
          "^/([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$",
          "an absolute path like /fsx (no '..', spaces or quotes)",
          255);
  static final Str CAPACITY_RESERVATION_ID =
      str(
          "^cr-[0-9a-f]{17}$",
          "a Capacity Reservation id: cr- and 17 hexadecimal digits, like cr-0123456789abcdef0",
          20);
  static final Obj LOCAL_NVME =
      obj(
          LocalNvme.class,
          req(
              "raid0",
              new Bool(),
              "Build one RAID 0 array over the instance-store NVMe volumes found at boot (false leaves them alone)."),
          opt("mount", ABS_PATH, "/scratch", "Where the array is mounted (XFS)."),
          opt(
              "containerd",
              new Bool(),
              false,
              "Put containerd's root (images, containers) on the array."));
  static final Str INSTANCE_TYPE =
      str("^[a-z][a-z0-9-]*(\\.[a-z0-9]+)?$", "an instance or machine type like p5.48xlarge", 64);
  static final Str DRIVER =
      str("^[0-9]{3}(\\.[0-9]{1,3}){1,2}$", "an NVIDIA driver version like \"580.95.05\"", 11);
  static final Str CUDA = str("^[0-9]{2}\\.[0-9]{1,2}$", "a CUDA version like \"12.8\"", 5);
  static final Str SEMVER =
      str("^[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}$", "a version like \"1.17.8\"", 11);
  static final Str OPERATOR_VERSION =
      str(
          "^v[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}$",
          "a GPU operator chart version like v25.3.0",
          12);
  // Kubernetes label keys and values (apimachinery validation), which are also safe in YAML/HCL.
  static final Str LABEL_KEY =
      str(
          "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$",
          "a Kubernetes label key like workload-type or nvidia.com/gpu",
          316);
  static final Str LABEL_VALUE =
      new Str(
          Pattern.compile("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$"),
          "a Kubernetes label value (up to 63 letters, digits, '-', '_', '.')",
          63,
          true);
  static final Str SYSCTL_KEY =
      str("^[a-z][a-z0-9_]*(\\.[A-Za-z0-9_-]+)+$", "a sysctl name like vm.max_map_count", 128);
  static final Str SYSCTL_VALUE =
      new Str(
          Pattern.compile("^[A-Za-z0-9._:,/ -]{1,128}$"),
          "a sysctl value (letters, digits, spaces and . _ : , / -)",
          128,
          true);
  // Environment keys that NCCL and its network plugins read; never LD_PRELOAD, PATH and the like.
  static final Str NCCL_KEY =
      str(
          "^(NCCL|FI|OFI_NCCL|UCX|CUDA)_[A-Z0-9_]{1,64}$",
          "an NCCL_*, FI_*, OFI_NCCL_*, UCX_* or CUDA_* variable name",
          70);
  // No quotes, backslashes, '$', backticks or newlines: safe in nccl.conf, /etc/environment and
  // shell.
  static final Str NCCL_VALUE =
      new Str(
          Pattern.compile("^[A-Za-z0-9^_.,:=/+@%-]{0,256}$"),
          "a value of letters, digits and ^ _ . , : = / + @ % - (no quotes, spaces, '$' or newlines)",
          256,
          true);
  static final Str SIZE = str("^[1-9][0-9]{0,5}[KMG]?$", "a byte size like 8G, 512M or 1048576", 8);
  // Static hosts: a DNS host name (RFC 1123 labels) and an address Ansible connects to.
  static final Str HOST_NAME =
      str(
          "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$",
          "a host name of lower-case letters, digits, '-' and '.' (RFC 1123)",
          253);
  // A DNS name's last label is never all digits (RFC 3696 section 2), so 192.0.2.300 is a bad
  // IPv4 address, not a host name; IPv6 is the RFC 4291 text form, one "::" at most.
  private static final String H16 = "[0-9a-fA-F]{1,4}";
  static final Str HOST_ADDRESS =
      str(
          "^((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}"
              + "|("
              + H16
              + ":){7}"
              + H16
              + "|("
              + H16
              + ":){1,7}:"
              + "|("
              + H16
              + ":){1,6}:"
              + H16
              + "|("
              + H16
              + ":){1,5}(:"
              + H16
              + "){1,2}"
              + "|("
              + H16
              + ":){1,4}(:"
              + H16
              + "){1,3}"
              + "|("
              + H16
              + ":){1,3}(:"
              + H16
              + "){1,4}"
              + "|("
              + H16
              + ":){1,2}(:"
              + H16
              + "){1,5}"
              + "|"
              + H16
              + ":(:"
              + H16
              + "){1,6}"
              + "|:((:"
              + H16
              + "){1,7}|:)"
              + "|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*"
              + "(?=[0-9-]*[a-z])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)$",
          "an IPv4 address (four numbers 0-255), an IPv6 address or a DNS name (whose last label"
              + " is not all digits)",
          253);
  // kubeadm's --control-plane-endpoint: HOST:PORT, a DNS name (last label not all digits) or an
  // IPv4 address, and a port 1-65535; kubeadm adds the host to the API server certificate's SANs.
  // https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/
  static final Str CONTROL_PLANE_ENDPOINT =
      str(
          "^((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}"
              + "|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*"
              + "(?=[0-9-]*[a-z])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)"
              + ":(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})$",
          "HOST:PORT, a DNS name or IPv4 address and a port 1-65535, like"
              + " k8s-api.corp.example:6443",
          259);
  // Host variables are an allow-list: ansible_connection, ansible_*_interpreter, *_executable,
  // *_args and become* settings decide what runs where (ansible_connection: local plus an
  // interpreter of "/usr/bin/touch x" runs a command on the controller), and a password or key
  // here would land in inventory.yml in plain text. gpugen_* are gpugen's own.
  // https://docs.ansible.com/ansible/latest/inventory_guide/intro_inventory.html#connecting-to-hosts-behavioral-inventory-parameters
  static final Str HOST_VAR_KEY =
      str(
              "^(?:ansible_(?:user|port|ssh_private_key_file)"
                  + "|(?!gpugen_|ansible_)"
                  + "(?![a-z0-9_]*(?:pass|secret|token|credential|access_key|api_key|private_key))"
                  + "[a-z_][a-z0-9_]{0,63})$",
              "ansible_user, ansible_port, ansible_ssh_private_key_file or a variable of your own"
                  + " (no other ansible_* setting, no gpugen_*, no password, secret, token or key)",
              64)
          .reserving(SpecShape::roleVariable);

  /**
   * The variable namespaces of gpugen's roles (templates/ansible/roles/NAME, each variable prefixed
   * NAME_), each with the spec keys that set its variables; kubernetes_node_name stays the host's
   * own (the node's name in Kubernetes where it is not the host name). A host variable outranks
   * role defaults and group_vars
   * (https://docs.ansible.com/ansible/latest/playbook_guide/playbooks_variables.html#understanding-variable-precedence),
   * so vars: {nvidia_driver_version: ..., nccl_network_efa_installer_url: ...} would silently
   * replace on that host what the render sets from the spec, or pins (an installer's URL and
   * SHA-256), and install it as root.
   */
  static final Map<String, String> ROLE_NAMESPACES =
      Map.ofEntries(
          Map.entry(
              "container_runtime",
              "software.containerToolkit, mirrors.nvidiaContainerToolkit or mirrors.registries"),
          Map.entry("doca_ofed", "software.docaOfed"),
          Map.entry(
              "fabric_preflight", "the pool's rdma.preflight, rdma.hcaPorts or rdma.linkGbps"),
          Map.entry("gke_checks", "cloud.gke and the pools"),
          Map.entry("host_tuning", "the pool's tuning (cpuGovernor, hugepages, gpuClocks)"),
          Map.entry("rdma_checks", "the pool's fabric and kubernetes"),
          Map.entry(
              "gpu_operator",
              "software.gpuOperator, the pool's labels and taints or mirrors.helm.gpuOperator"),
          Map.entry("kubeadm", "kubernetes (version, cni, controlPlane) or mirrors.kubernetes"),
          Map.entry("kubernetes_checks", "kubernetes"),
          Map.entry("local_nvme", "pools[].localNvme (raid0, mount, containerd)"),
          Map.entry("lustre_client", "storage.lustre or mirrors.lustre"),
          Map.entry("nccl_network", "nccl.env, network.fabric or mirrors.files"),
          Map.entry(
              "nvidia_driver",
              "software.driver, software.cuda or software.kernelModules (the cluster's or the"
                  + " pool's), or mirrors.cuda"),
          Map.entry("prerequisites", "kernel.sysctl, kernel.blacklistNouveau or mirrors.ubuntu"),
          Map.entry(
              "validation",
              "validation (the cluster's or the pool's: gpuBurnSeconds, dcgmDiagLevel,"
                  + " ncclAllReduce)"));

  /** The spec key of the variables users most often reach for, for a precise hint. */
  private static final Map<String, String> ROLE_VARIABLE_KEYS =
      Map.ofEntries(
          Map.entry("nvidia_driver_version", "software.driver"),
          Map.entry("nvidia_driver_branch", "software.driver"),
          Map.entry("nvidia_driver_cuda_version", "software.cuda"),
          Map.entry("nvidia_driver_kernel_modules", "software.kernelModules"),
          Map.entry("nvidia_driver_repo_base_url", "mirrors.cuda"),
          Map.entry("container_runtime_toolkit_version", "software.containerToolkit"),
          Map.entry("container_runtime_repo_base_url", "mirrors.nvidiaContainerToolkit"),
          Map.entry("container_runtime_registry_mirrors", "mirrors.registries"),
          Map.entry("nccl_network_env", "nccl.env"),
          Map.entry("nccl_network_fabric", "network.fabric"),
          Map.entry("nccl_network_efa_installer_url", "mirrors.files"),
          Map.entry("nccl_network_gdrcopy_url", "mirrors.files"),
          Map.entry("nccl_network_files_mirror_url", "mirrors.files"),
          Map.entry("prerequisites_sysctl", "kernel.sysctl"),
          Map.entry("prerequisites_blacklist_nouveau", "kernel.blacklistNouveau"),
          Map.entry("prerequisites_ubuntu_mirror_url", "mirrors.ubuntu"),
          Map.entry("gpu_operator_version", "software.gpuOperator.version"),
          Map.entry("gpu_operator_node_labels", "the pool's labels"),
          Map.entry("gpu_operator_node_taints", "the pool's taints"),
          Map.entry("kubeadm_kubernetes_minor", "kubernetes.version"),
          Map.entry("kubeadm_cni", "kubernetes.cni"),
          Map.entry("kubeadm_control_plane_endpoint", "kubernetes.controlPlane.endpoint"),
          Map.entry("kubeadm_repo_base_url", "mirrors.kubernetes"),
          Map.entry("local_nvme_mount", "pools[].localNvme.mount"),
          Map.entry("local_nvme_containerd", "pools[].localNvme.containerd"),
          Map.entry("lustre_client_mount_point", "storage.lustre.mountPoint"),
          Map.entry("lustre_client_repo_url", "mirrors.lustre"),
          Map.entry("validation_gpu_burn_seconds", "validation.gpuBurnSeconds"),
          Map.entry("validation_dcgm_diag_level", "validation.dcgmDiagLevel"),
          Map.entry(
              "validation_nccl_min_bus_bandwidth_gbps",
              "validation.ncclAllReduce.minBusBandwidthGBps"));

  private static Optional<Shape.Refusal> roleVariable(String key) {
    for (String role : new java.util.TreeSet<>(ROLE_NAMESPACES.keySet()).descendingSet()) {
      if (key.startsWith(role + "_")) {
        String keys = ROLE_VARIABLE_KEYS.getOrDefault(key, ROLE_NAMESPACES.get(role));
        return Optional.of(
            new Shape.Refusal(
                "a variable of gpugen's "
                    + role
                    + " role; as a host variable it would override on this host what the render"
                    + " sets from the spec (host variables outrank group_vars)",
                "set "
                    + keys
                    + " instead; a variable of your own needs a name outside gpugen's roles ("
                    + String.join("_*, ", new java.util.TreeSet<>(ROLE_NAMESPACES.keySet()))
                    + "_*)"));
      }
    }
    return Optional.empty();
  }

  /**
   * Ansible's implicit localhost: a host of that name (or a loopback address as its name) takes
   * over every delegate_to: localhost task, the admin kubeconfig fetch among them
   * (https://docs.ansible.com/ansible/latest/inventory/implicit_localhost.html).
   */
  private static Optional<Shape.Refusal> reservedHostName(String name) {
    if (name.equals("localhost") || name.startsWith("localhost.") || loopbackIpv4(name)) {
      return Optional.of(
          new Shape.Refusal(
              "Ansible's name for the controller itself: every delegate_to: localhost task (the"
                  + " admin kubeconfig fetch among them) would run on this host instead",
              "name the host after the machine (its DNS name)"));
    }
    return Optional.empty();
  }

  /**
   * An address that is not another machine as the controller's resolver reads it: loopback (the
   * controller itself), unspecified, link-local, multicast, IPv4 in IPv6 clothing, a number in
   * inet_aton's forms, a stock /etc/hosts loopback name ({@link HostAddress}).
   */
  private static Optional<Shape.Refusal> reservedAddress(String address) {
    return HostAddress.problem(address)
        .map(
            why ->
                new Shape.Refusal(
                    why + "; Ansible would connect there instead of to the node",
                    "write the node's own address: a dotted quad like 10.40.0.11, an IPv6"
                        + " address or its DNS name"));
  }

  private static boolean loopbackIpv4(String s) {
    return s.matches("127(\\.[0-9]{1,3}){3}");
  }

  static final Str HOST_VAR_VALUE =
      new Str(
          Pattern.compile("^[A-Za-z0-9._:,/@=+ -]{0,256}$"),
          "a value of letters, digits, spaces and . _ : , / @ = + - (no quotes, braces or '$')",
          256,
          true);
  // A Linux network interface name (at most 15 characters, IFNAMSIZ): safe in nccl.conf, shell and
  // Open MPI's MCA values.
  static final Str INTERFACE =
      str(
          "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,14}$",
          "a network interface name like bond0, eno1 or ens1f0np0 (up to 15 characters)",
          15);
  // A DOCA release as NVIDIA's repository names its folders (linux.mellanox.com/public/repo/doca/).
  static final Str DOCA_VERSION =
      str("^[0-9]{1,2}\\.[0-9]{1,2}\\.[0-9]{1,2}$", "a DOCA release like \"3.2.1\"", 8);
  static final Str CPU_GOVERNOR =
      str(
          "^(performance|powersave|ondemand|schedutil|conservative|userspace)$",
          "a cpufreq governor: performance, powersave, ondemand, schedutil, conservative or userspace",
          12);
  static final Str GPU_MODEL =
      str("^[A-Za-z][A-Za-z0-9-]{0,31}$", "a GPU model like h100, a100-80gb or l4", 32);
  static final Str GCP_PROJECT =
      str("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", "a GCP project id like my-project-123", 30);
  static final Str GKE_VERSION =
      str(
          "^1\\.[0-9]{2}(\\.[0-9]{1,3}-gke\\.[0-9]{1,10})?$",
          "a GKE version: a minor like \"1.35\" or an exact one like \"1.35.2-gke.1962000\"", 24);
  static final Str DATE =
      str(
          "^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
          "a date like \"2027-03-31\"", 10);
  static final Str GCP_RESERVATION =
      str(
          "^(projects/[a-z][a-z0-9-]{4,28}[a-z0-9]/reservations/)?[a-z]([-a-z0-9]{0,61}[a-z0-9])?$",
          "a Compute Engine reservation name, or projects/PROJECT/reservations/NAME for one"
              + " shared from another project",
          128);
  static final Str GKE_CLUSTER =
      str(
          "^[a-z]([a-z0-9-]{0,38}[a-z0-9])?$",
          "a GKE cluster name (1-40 chars: a-z, 0-9, '-')",
          40);
  // Pull mode: a Git URL as text (the lint rule pull-git-url checks scheme and credentials), a ref
  // and a path inside the repository; no quotes, spaces, '$' or backticks: they reach a shell.
  static final Str GIT_REF =
      str(
          "^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$",
          "a Git tag or commit like v1.4.0 or a 40-hex commit id",
          128);
  static final Str REASON =
      str("^[^\\x00-\\x1F\\x7F]{10,500}$", "a sentence saying why (10 to 500 characters)", 500);
  static final Str RULE_ID =
      str("^[a-z][a-z0-9-]{1,63}$", "a rule id like drv-cuda-needs-newer-driver", 64);

  // A Git URL ArgoCD can clone: https://host[:port]/path or ssh (ssh://user@host/path,
  // user@host:path).
  // User info is allowed by the grammar so that gitops-repo-credentials can point at a token.
  static final Str GIT_URL =
      str(
          "^(https://([A-Za-z0-9._~%+-]+(:[A-Za-z0-9._~%+-]*)?@)?[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~%+-]+)+/?"
              + "|ssh://([A-Za-z0-9._~%+-]+(:[A-Za-z0-9._~%+-]*)?@)?[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~%+-]+)+/?"
              + "|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[A-Za-z0-9._~%+-]+(/[A-Za-z0-9._~%+-]+)*)$",
          "a Git URL like https://git.example.com/infra.git or git@git.example.com:infra.git", 512);
  // A branch, tag or commit as git check-ref-format allows (a subset: no '..', '@{', spaces,
  // '~^:?*[\\').
  static final Str GIT_REVISION =
      str(
          "^(?!.*\\.\\.)(?!.*/\\.)(?!.*\\.lock(/|$))[A-Za-z0-9_][A-Za-z0-9._/+-]{0,127}(?<![./])$",
          "a Git branch, tag or commit like main, v1.4.0 or a 40-hex commit",
          128);
  // A path inside the Git repository: relative, no '..', no leading or trailing '/'.
  static final Str REPO_PATH =
      str(
          "^(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$",
          "a relative path in the repository like clusters/prod/argocd (no '..')",
          255);
  // Kubernetes namespace and ArgoCD project names (DNS-1123 labels).
  static final Str K8S_NAME =
      str(
          "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$",
          "a Kubernetes name (DNS-1123 label: a-z, 0-9, '-')",
          63);
  static final Str K8S_SERVER =
      str(
          "^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*/?$",
          "a Kubernetes API server URL like https://kubernetes.default.svc",
          255);

  // A Linux login name (useradd's default NAME_REGEX, lower case) for the bastion.
  static final Str LOGIN_USER =
      str("^[a-z_][a-z0-9_-]{0,31}$", "a login name like ec2-user or ubuntu", 32);
  // An S3 object key for the Terraform state: relative, no '..' or empty segments; safe in HCL.
  static final Str STATE_KEY =
      str(
          "^(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$",
          "an S3 key like gpu/atlas.tfstate (letters, digits, '.', '_', '-', '/'; no '..')",
          1024);

  // Kubernetes minors as the distributions name them (1.33), not patch releases.
  static final Str K8S_MINOR = str("^1\\.[0-9]{2}$", "a Kubernetes minor like \"1.33\"", 4);
  // The EKS add-ons gpugen installs
  // (https://docs.aws.amazon.com/eks/latest/userguide/workloads-add-ons-available-eks.html).
  static final Str EKS_ADDON_NAME =
      str(
          "^(coredns|eks-pod-identity-agent|kube-proxy|vpc-cni)$",
          "coredns, eks-pod-identity-agent, kube-proxy or vpc-cni",
          32);
  // An EKS add-on version as DescribeAddonVersions lists it.
  static final Str EKS_ADDON_VERSION =
      str(
          "^v[0-9]+\\.[0-9]+\\.[0-9]+-eksbuild\\.[0-9]+$",
          "an EKS add-on version like v1.20.1-eksbuild.3",
          64);
  // An IAM role or user ARN (aws, aws-cn, aws-us-gov partitions), as EKS access entries take them.
  static final Str IAM_PRINCIPAL_ARN =
      str(
          "^arn:aws(-cn|-us-gov)?:iam::[0-9]{12}:(role|user)(/[A-Za-z0-9+=,.@_-]{1,64})*/[A-Za-z0-9+=,.@_-]{1,64}$",
          "an IAM role or user ARN like arn:aws:iam::123456789012:role/platform-admin",
          2048);

  // A mirror the team runs (Artifactory, Nexus, Harbor...): http or https, a host, an optional
  // port and path; no user info (credentials are a secret, not a spec value), query, fragment,
  // whitespace, quotes, braces or '$', so it is plain text in YAML, Jinja, TOML and apt files.
  static final Str MIRROR_URL =
      str(
          "^(?!.*/\\.\\.?(/|$))https?://[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(:[0-9]{1,5})?(/[A-Za-z0-9._~%+-]+)*/?$",
          "an http(s) URL like https://artifactory.example.com/artifactory/ubuntu (no user info,"
              + " query, spaces or quotes)",
          512);

  // A container registry as image references name it: a DNS name with a dot, optionally a port.
  static final Str REGISTRY =
      str(
          "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+(:[0-9]{1,5})?$",
          "a registry host like nvcr.io or registry.example.com:5000",
          259);

  static final Obj MIRRORS =
      obj(
          ClusterSpec.Mirrors.class,
          opt(
              "ubuntu",
              MIRROR_URL,
              null,
              "A mirror of Ubuntu's archive (http://archive.ubuntu.com/ubuntu, which also carries the -security pocket): play 00 points the node's apt sources at it."),
          opt(
              "cuda",
              MIRROR_URL,
              null,
              "A mirror of NVIDIA's CUDA repositories (https://developer.download.nvidia.com/compute/cuda/repos): driver, CUDA toolkit, Fabric Manager, DCGM and the cuda-keyring package."),
          opt(
              "nvidiaContainerToolkit",
              MIRROR_URL,
              null,
              "A mirror of the NVIDIA Container Toolkit repository (https://nvidia.github.io/libnvidia-container), with its gpgkey."),
          opt(
              "kubernetes",
              MIRROR_URL,
              null,
              "A mirror of https://pkgs.k8s.io (kubelet, kubeadm, kubectl and each minor's Release.key; kubernetes.distribution kubeadm)."),
          opt(
              "lustre",
              MIRROR_URL,
              null,
              "A mirror of AWS's FSx Lustre client repository (https://fsx-lustre-client-repo.s3.amazonaws.com; storage.lustre)."),
          opt(
              "files",
              MIRROR_URL,
              null,
              "A folder holding single files under their upstream names: aws-efa-installer-<version>.tar.gz and gdrcopy-<version>.tar.gz (EFA pools), fsx-ubuntu-public-key.asc (storage.lustre). docs/air-gapped.md lists them."),
          opt(
              "git",
              MIRROR_URL,
              null,
              "A Git server holding gpu-burn.git and nccl-tests.git (mirrors of https://github.com/wilicc/gpu-burn and https://github.com/NVIDIA/nccl-tests), which play 05 builds."),
          opt(
              "helm",
              obj(
                  opt(
                          "gpuOperator",
                          MIRROR_URL,
                          null,
                          "A mirror of NVIDIA's Helm repository https://helm.ngc.nvidia.com/nvidia (the GPU Operator chart; play 03 or ArgoCD).")
                      .as("helmGpuOperator"),
                  opt(
                          "eksCharts",
                          MIRROR_URL,
                          null,
                          "A mirror of https://aws.github.io/eks-charts (the EFA device plugin chart; EFA pools).")
                      .as("helmEksCharts"),
                  opt(
                          "cilium",
                          MIRROR_URL,
                          null,
                          "A mirror of https://helm.cilium.io (kubeadm with cni cilium).")
                      .as("helmCilium"),
                  opt(
                          "tigera",
                          MIRROR_URL,
                          null,
                          "A mirror of https://docs.tigera.io/calico/charts (kubeadm with cni calico).")
                      .as("helmTigera")),
              null,
              "Helm chart repositories, one per upstream."),
          opt(
              "registries",
              new MapOf(REGISTRY, MIRROR_URL, 32),
              null,
              "Container registry mirrors by registry (nvcr.io, registry.k8s.io, docker.io, ...): containerd on the nodes pulls that registry's images from the URL (/etc/containerd/certs.d/<registry>/hosts.toml). A URL with a path is the registry API root (override_path)."));

  static final Obj GITOPS =
      obj(
          GitOps.class,
          opt(
              "argocd",
              obj(
                  ArgoCd.class,
                  req(
                          "repoURL",
                          GIT_URL,
                          "The Git repository ArgoCD reads the rendered argocd/ folder from (https or ssh; credentials go in an ArgoCD repository secret, never here).")
                      .as("repoUrl"),
                  opt(
                      "targetRevision",
                      GIT_REVISION,
                      "HEAD",
                      "The branch, tag or commit ArgoCD syncs; a tag or commit pins the cluster (gitops-unpinned-revision)."),
                  opt(
                          "path",
                          REPO_PATH,
                          null,
                          "Where the rendered argocd/ folder is in that repository (default: roles-generated/<name>[-<env>]/argocd).")
                      .resolvedBy(
                          (s, path) ->
                              path != null
                                  ? path
                                  : ClusterSpec.outputFolder(
                                          (String) s.root("metadata.name"), s.environment())
                                      + "/argocd"),
                  opt(
                      "namespace",
                      K8S_NAME,
                      "argocd",
                      "The namespace ArgoCD runs in; the Applications are created there."),
                  opt("project", K8S_NAME, "default", "The ArgoCD project of the Applications."),
                  opt(
                      "server",
                      K8S_SERVER,
                      "https://kubernetes.default.svc",
                      "The destination cluster's API server as ArgoCD knows it (default: the cluster ArgoCD runs in)."),
                  opt(
                      "automated",
                      new Bool(),
                      true,
                      "Automated sync with prune and selfHeal; false leaves syncing to a person (play 03 then waits for it).")),
              null,
              "ArgoCD takes over the cluster-side components: gpugen render writes argocd/ and play 03 only checks the Applications."));

  static final Obj SOFTWARE =
      obj(
          Software.class,
          opt(
              "os",
              new Enum(List.of("ubuntu-22.04", "ubuntu-24.04")),
              "ubuntu-22.04",
              "Node operating system."),
          req("driver", DRIVER, "NVIDIA data-center driver version, exact."),
          req(
              "cuda",
              CUDA,
              "CUDA toolkit version (cuda-toolkit-X-Y is installed, never the cuda meta-package)."),
          opt(
                  "containerToolkit",
                  SEMVER,
                  null,
                  "NVIDIA Container Toolkit version (all its packages at this version; the GPU"
                      + " Operator's toolkit on GKE). Default: 1.17.8; 1.18.1 on gcp, whose"
                      + " containerd 2 needs 1.18.0 or later (gop-gke-toolkit-too-old).")
              .resolvedBy((s, v) -> v != null ? v : gcp(s) ? "1.18.1" : "1.17.8"),
          opt(
              "kernelModules",
              new Enum(Keyword.spellings(KernelModules.class)),
              KernelModules.AUTO.spelling(),
              "Kernel module flavour; auto picks open on Turing and newer, proprietary on Volta and older."),
          opt(
              "gpuOperator",
              obj(
                  GpuOperator.class,
                  opt(
                          "version",
                          OPERATOR_VERSION,
                          null,
                          "NVIDIA GPU Operator Helm chart version. Default: v25.3.0; v25.10.1 on"
                              + " gcp (the first release whose toolkit works on GKE 1.33+).")
                      .resolvedBy((s, v) -> v != null ? v : gcp(s) ? "v25.10.1" : "v25.3.0"),
                  opt(
                      "dcgmExporter",
                      new Bool(),
                      true,
                      "Deploy the DCGM exporter for GPU metrics."),
                  opt("migManager", new Bool(), false, "Deploy the MIG manager.")),
              null,
              "GPU Operator settings (the driver and toolkit stay host-installed)."),
          opt(
              "devicePlugin",
              obj(
                  DevicePlugin.class,
                  opt(
                      "timeSlicingReplicas",
                      new Int(1, 64),
                      1L,
                      "GPU time-slicing replicas per GPU; 1 disables time-slicing.")),
              null,
              "Kubernetes device plugin settings."),
          opt(
              "docaOfed",
              DOCA_VERSION,
              null,
              "InfiniBand/RoCE: install NVIDIA's DOCA-OFED of this release in play 00, before the"
                  + " driver (so nvidia-peermem builds against it); without it the distribution's"
                  + " rdma-core, and GPUDirect RDMA through DMA-BUF."));

  static final Obj VALIDATION =
      obj(
          Validation.class,
          opt("gpuBurnSeconds", new Int(0, 86400), 120L, "gpu-burn duration per node; 0 skips it."),
          opt("dcgmDiagLevel", new Int(1, 4), 1L, "dcgmi diag run level."),
          opt(
              "ncclAllReduce",
              obj(
                  opt(
                      "minBusBandwidthGBps",
                      new Num(0.1, 100000),
                      null,
                      "Fail validation below this all-reduce bus bandwidth (GB/s)."),
                  opt(
                      "minBytes",
                      SIZE,
                      "8",
                      "Smallest all-reduce message size (all_reduce_perf -b)."),
                  opt("maxBytes", SIZE, "8G", "Largest all-reduce message size."),
                  opt(
                      "minMultiNodeBusBandwidthGBps",
                      new Num(0.1, 100000),
                      null,
                      "Fail the multi-node run below this all-reduce bus bandwidth (GB/s); default"
                          + " on InfiniBand/RoCE pools: 80% of what the HCAs and the GPUs carry.")),
              null,
              "nccl-tests all_reduce_perf settings."),
          opt(
              "outlierPercent",
              new Num(1, 99),
              10.0,
              "Flag a node more than this many percent below its pool's median single-node"
                  + " all-reduce bus bandwidth or gpu-burn throughput (play 05, pools of 3 or"
                  + " more measured nodes)."),
          opt(
              "outlierFails",
              new Bool(),
              false,
              "Fail an outlier node (and, with kubernetes:, taint it) instead of warning."),
          opt(
              "gateScheduling",
              new Bool(),
              false,
              "With kubernetes: keep nodes that never passed play 05 off the scheduler (taint"
                  + " gpugen.dev/validation=pending:NoSchedule until they pass)."));

  static final Obj ROOT_VOLUME =
      obj(
          RootVolume.class,
          opt(
              "type",
              new Enum(List.of("gp3", "gp2", "io1", "io2")),
              "gp3",
              "EBS volume type of the root disk (always encrypted)."),
          opt("sizeGiB", new Int(30, 16384), 200L, "Root disk size in GiB."),
          opt("iops", new Int(3000, 256000), null, "Provisioned IOPS (gp3, io1, io2)."),
          opt("throughput", new Int(125, 2000), null, "gp3 throughput in MiB/s."),
          opt(
              "encrypted",
              new Bool(),
              true,
              "EBS encryption at rest; false is a security error (sec-unencrypted-storage)."));

  static final Obj TAINT =
      obj(
          Taint.class,
          req("key", LABEL_KEY, "Taint key."),
          opt("value", LABEL_VALUE, null, "Taint value."),
          req(
              "effect",
              new Enum(List.of("NoSchedule", "PreferNoSchedule", "NoExecute")),
              "Taint effect."));

  static final Obj HOST =
      obj(
          Host.class,
          req(
              "name",
              HOST_NAME.reserving(SpecShape::reservedHostName),
              "Inventory host name (not localhost or a 127.* address)."),
          req(
              "address",
              HOST_ADDRESS.reserving(SpecShape::reservedAddress),
              "Where Ansible connects (ansible_host): another machine, so no loopback,"
                  + " unspecified, link-local or multicast address, IPv4-mapped IPv6 address,"
                  + " number in inet_aton's hex or octal forms (0x7f000001) or stock /etc/hosts"
                  + " loopback name (localhost4, ip6-localhost)."),
          opt(
              "vars",
              new MapOf(HOST_VAR_KEY, HOST_VAR_VALUE, 64),
              null,
              "Extra host variables: ansible_user, ansible_port, ansible_ssh_private_key_file, or"
                  + " variables of your own (connection, interpreter, become and password settings,"
                  + " and the variables of gpugen's roles, are refused)."));

  static final Obj STATIC_GPU =
      obj(
          StaticGpu.class,
          req("model", GPU_MODEL, "GPU model (h100, a100, l4, ...)."),
          req("count", new Int(1, 16), "GPUs per host."),
          opt(
              "nvswitch",
              new Bool(),
              null,
              "GPUs on an NVSwitch baseboard (HGX/SXM: Fabric Manager); default: what the model name"
                  + " says (h100-sxm or b200 at 8 GPUs: yes; h100-pcie, h100-nvl, l4: no); a model"
                  + " that comes both ways (h100 at 8 GPUs) must say it: drv-nvswitch-ambiguous."));

  static final Obj RDMA =
      obj(
          Rdma.class,
          opt(
              "hcaPorts",
              new Int(1, 64),
              null,
              "HCA ports NCCL uses on each host (each one in NCCL_IB_HCA when it is set); default:"
                  + " the GPU's NVIDIA reference system (8 for DGX A100/H100/H200/B200)."),
          opt(
              "linkGbps",
              new Int(10, 3200),
              null,
              "The rate each of those ports must run at, Gb/s (200 HDR, 400 NDR, 800 XDR); default:"
                  + " the GPU's reference system."),
          opt(
              "preflight",
              new Bool(),
              false,
              "Before play 00 installs anything, fail a host whose HCAs are not Active at linkGbps"
                  + " (with a subnet manager on InfiniBand), whose PCIe switch downstream ports have ACS on or whose"
                  + " IOMMU translates DMA."));

  static final Obj TUNING =
      obj(
          Tuning.class,
          opt(
              "cpuGovernor",
              CPU_GOVERNOR,
              null,
              "The cpufreq scaling governor of every CPU, set at boot (performance for training)."),
          opt(
              "hugepages",
              new Int(0, 10000000),
              null,
              "2 MiB huge pages reserved at boot (vm.nr_hugepages)."),
          opt(
              "gpuClocks",
              obj(
                  GpuClocks.class,
                  req("memoryMHz", new Int(100, 20000), "Memory application clock, MHz."),
                  req("graphicsMHz", new Int(100, 5000), "Graphics application clock, MHz.")),
              null,
              "GPU application clocks set at boot (nvidia-smi --applications-clocks); a pair"
                  + " nvidia-smi -q -d SUPPORTED_CLOCKS lists."));

  static final Obj POOL =
      obj(
              req(
                  "name",
                  POOL_NAME,
                  "Pool name; the gpugen:pool tag and the inventory group pool_<name>."),
              opt(
                      "instanceType",
                      INSTANCE_TYPE,
                      null,
                      "EC2 instance type or GCP machine type (required for aws and gcp).")
                  // "" for a static pool: no instance type says what it is.
                  .resolvedBy((s, type) -> type != null ? type : ""),
              opt(
                      "fabric",
                      new Enum(Keyword.spellings(Fabric.class)),
                      null,
                      "This pool's interconnect between nodes; default: network.fabric where"
                          + " written, else efa where the EC2 type has EFA, else tcp.")
                  // The cluster's where written, else efa where the pool's EC2 type has EFA and tcp
                  // elsewhere, so a mixed cluster is not pushed down to TCP by one pool.
                  .resolvedBy(
                      (s, fabric) ->
                          fabric != null
                              ? fabric
                              : s.rootText("network.fabric")
                                  .orElse(
                                      (awsText(s) && s.efaCapable((String) s.get("instanceType"))
                                              ? Fabric.EFA
                                              : Fabric.TCP)
                                          .spelling())),
              opt(
                  "gpu",
                  STATIC_GPU,
                  null,
                  "The hosts' GPUs (required for static, where no instance type says it)."),
              opt("hosts", new ListOf(HOST, 0, 10000), null, "The pool's hosts (static)."),
              opt(
                  "autoscaling",
                  obj(
                      Autoscaling.class,
                      req("min", new Int(0, 1000), "Fewest nodes."),
                      req("max", new Int(1, 1000), "Most nodes.")),
                  null,
                  "GKE cluster autoscaler bounds (gcp); without it the pool has count nodes."),
              opt(
                      "count",
                      new Int(0, 10000),
                      1L,
                      "Number of nodes (static: the number of hosts; gcp with autoscaling: ignored).")
                  // A static pool has as many nodes as hosts.
                  .resolvedBy(
                      (s, count) ->
                          s.get("hosts") instanceof List<?> l ? (Object) (long) l.size() : count),
              opt(
                  "market",
                  new Enum(Keyword.spellings(Market.class)),
                  Market.ON_DEMAND.spelling(),
                  "Purchase option: on-demand, spot, capacity-block (aws: an EC2 Capacity Block for ML; needs capacityReservationId), flex-start or flex-start-queued (gcp: Dynamic Workload Scheduler's flex-start, alone or with queued provisioning; needs autoscaling)."),
              opt(
                  "capacityReservationId",
                  CAPACITY_RESERVATION_ID,
                  null,
                  "The Capacity Reservation the nodes launch into (aws): the Capacity Block's with market capacity-block, or a targeted On-Demand Capacity Reservation with market on-demand."),
              opt(
                  "reservation",
                  GCP_RESERVATION,
                  null,
                  "The Compute Engine reservation the nodes consume (gcp): its name, or projects/PROJECT/reservations/NAME for a shared one; the pool then uses that reservation only."),
              opt("rootVolume", ROOT_VOLUME, null, "Root disk."),
              opt(
                  "localNvme",
                  LOCAL_NVME,
                  null,
                  "The instance-store NVMe volumes (aws): one RAID 0 array at every boot, mounted, optionally containerd's root."),
              opt("labels", new MapOf(LABEL_KEY, LABEL_VALUE, 64), null, "Kubernetes node labels."),
              opt("taints", new ListOf(TAINT, 0, 32), null, "Kubernetes node taints."),
              opt(
                      "software",
                      SOFTWARE.allOptional(),
                      null,
                      "Per-pool overrides of the cluster-wide software keys.")
                  .resolvedBy((s, software) -> deepMerge(s.root("software"), software)),
              opt(
                      "validation",
                      VALIDATION.allOptional(),
                      null,
                      "Per-pool overrides of the cluster-wide validation keys (thresholds per GPU type).")
                  .resolvedBy((s, validation) -> deepMerge(s.root("validation"), validation)),
              opt(
                  "bootstrapInterface",
                  INTERFACE,
                  null,
                  "The host interface NCCL bootstraps over (NCCL_SOCKET_IFNAME on InfiniBand/RoCE)"
                      + " and Open MPI's TCP traffic uses (btl_tcp_if_include, oob_tcp_if_include);"
                      + " default: the interface holding the host's address, found on each host."),
              opt("rdma", RDMA, null, "InfiniBand/RoCE: what each host's HCAs must show."),
              opt("tuning", TUNING, null, "Optional host tuning, each setting only where written."),
              opt(
                  "renamedFrom",
                  POOL_NAME,
                  null,
                  "The pool's previous name (aws): its nodes, launch template and placement group"
                      + " move to the new name instead of being replaced; keep it while nodes from"
                      + " before the rename run."),
              opt(
                  "retire",
                  new ListOf(new Int(0, 9999), 0, 1000),
                  null,
                  "Node keys to remove and never reuse (aws): count nodes take the lowest keys not"
                      + " listed, so retire: [3] removes node 3 alone (docs/terraform.md)."))
          .into(Pool.class);

  /** The GKE version gpugen pins a cluster it creates to, and checked the GKE render against. */
  public static final String GKE_DEFAULT_VERSION = "1.35";

  static final Obj SYSTEM_POOL =
      obj(
          SystemPool.class,
          opt(
                  "enabled",
                  new Bool(),
                  null,
                  "Render it; default: on gcp (GKE), and on eks when every GPU pool has a NoSchedule or NoExecute taint, so CoreDNS, the GPU Operator, NFD's master and any other controller have an untainted node (off with every pool tainted: k8s-system-pool-off).")
              .resolvedBy(
                  (s, enabled) -> enabled != null ? enabled : gcp(s) || everyPoolTainted(s)),
          opt(
                  "instanceType",
                  INSTANCE_TYPE,
                  null,
                  "Its machine type (gcp, default e2-standard-4) or EC2 instance type (eks, default m7i.large): x86_64, no GPU, on-demand.")
              .resolvedBy(
                  (s, type) ->
                      type != null
                          ? type
                          : switch (s.rootText("cloud.provider").orElse("")) {
                            case "gcp" -> "e2-standard-4";
                            case "aws" -> "m7i.large";
                            default -> null;
                          }),
          opt(
                  "count",
                  new Int(1, 10),
                  null,
                  "How many system nodes (default 2): two keep CoreDNS's (kube-dns's on GKE) two replicas and the controllers running while one is replaced (gcp with autoscaling: ignored, the pool starts at min).")
              .resolvedBy((s, count) -> count != null ? count : 2L),
          opt(
              "autoscaling",
              obj(
                  Autoscaling.class,
                  req("min", new Int(1, 10), "Fewest system nodes."),
                  req("max", new Int(1, 10), "Most system nodes.")),
              null,
              "gcp: GKE cluster autoscaler bounds for the system pool (eks renders count instances; there it is spec-setting-ignored)."),
          opt(
                  "diskSizeGb",
                  new Int(20, 1000),
                  null,
                  "The boot disk (gcp) or root volume (eks) in GB (default 50): the controllers' container images.")
              .resolvedBy((s, size) -> size != null ? size : 50L));

  static final Obj KUBERNETES =
      obj(
          Kubernetes.class,
          opt(
              "distribution",
              new Enum(Keyword.spellings(Distribution.class)),
              null,
              "Required, except in a gcp spec whose kubernetes: holds only systemPool (cloud.gke names GKE's cluster). Who runs the control plane: eks = Amazon EKS, created by the Terraform (aws); kubeadm = kubeadm bootstrapped by Ansible before play 03, on controlPlane.hosts (static) or on control-plane instances the Terraform creates (aws); existing = the cluster your kubeconfig names (any provider)."),
          opt(
              "version",
              K8S_MINOR,
              null,
              "Required with distribution. The Kubernetes minor (\"1.33\"): the EKS cluster version, or the kubelet/kubeadm/kubectl packages of kubeadm; checked against what the distribution and the GPU Operator release support."),
          opt(
              "endpointAccess",
              new Enum(Keyword.spellings(EndpointAccess.class)),
              EndpointAccess.PRIVATE.spelling(),
              "eks: the API endpoint is reachable from the VPC only (private), or also from publicCidrs (public-and-private)."),
          opt(
              "publicCidrs",
              new ListOf(CIDR, 0, 40),
              null,
              "eks with endpointAccess public-and-private: the CIDRs that may reach the public endpoint (required then; never 0.0.0.0/0 by default)."),
          opt(
                  "apiIngressCidrs",
                  new ListOf(CIDR, 0, 40),
                  null,
                  "aws, eks and kubeadm: the CIDRs (as the VPC sees them) that may reach the Kubernetes API server's private endpoint besides the nodes: the Ansible controller's, whose Helm and API calls (plays 02b-05) go there, or the bastion's. Opens 443 on the EKS cluster security group, 6443 on the kubeadm API load balancer or control plane. Default: network.sshIngressCidrs.")
              .resolvedBy(
                  (s, cidrs) -> cidrs != null ? cidrs : s.rootList("network.sshIngressCidrs")),
          opt(
              "admins",
              new ListOf(IAM_PRINCIPAL_ARN, 0, 50),
              null,
              "eks: IAM roles or users given cluster-admin through EKS access entries."),
          opt(
              "controlPlane",
              obj(
                  opt(
                          "hosts",
                          new ListOf(HOST, 1, 7),
                          null,
                          "static: the control-plane hosts; the first runs kubeadm init, the others join as control-plane nodes (stacked etcd, so an odd number: k8s-control-plane-even).")
                      .as("controlPlaneHosts"),
                  opt(
                          "endpoint",
                          CONTROL_PLANE_ENDPOINT,
                          null,
                          "static: kubeadm's --control-plane-endpoint, a load balancer or DNS name in front of every API server that you provide (HOST:PORT); required with more than one host (k8s-control-plane-endpoint-missing), else the first host's address.")
                      .as("controlPlaneEndpoint"),
                  opt(
                          "instanceType",
                          INSTANCE_TYPE,
                          "m7i.xlarge",
                          "aws: the EC2 instance type of the control-plane instances gpugen creates (x86_64, as the nodes' image; on-demand).")
                      .as("controlPlaneInstanceType"),
                  opt(
                          "count",
                          new Int(1, 3),
                          1L,
                          "aws: how many control-plane instances gpugen creates: 1, or 3 behind an internal Network Load Balancer (the endpoint); an even count is refused: k8s-control-plane-even.")
                      .as("controlPlaneCount")),
              null,
              "kubeadm: the control plane."),
          opt(
                  "systemPool",
                  SYSTEM_POOL,
                  null,
                  "gcp and eks: a small untainted pool of on-demand nodes without GPUs for kube-system, the cluster's controllers and the GPU Operator's Deployment (pool name gpugen-system). On gcp, kubernetes: may hold only this key.")
              // Bound into the spec's one SystemPool (a derived component of ClusterSpec).
              .as(""),
          opt(
                  "addons",
                  new MapOf(EKS_ADDON_NAME, EKS_ADDON_VERSION, 4),
                  null,
                  "eks: exact add-on versions by EKS add-on name (coredns, kube-proxy, vpc-cni, eks-pod-identity-agent), over the ones gpugen pins for kubernetes.version (each from the add-on's page of the Amazon EKS user guide; k8s-addon-version-unknown where it has none); eks-pod-identity-agent is installed only when named here. Changing one updates that add-on in place.")
              .as("addonVersions"),
          opt(
              "cni",
              new Enum(Keyword.spellings(Cni.class)),
              Cni.CILIUM.spelling(),
              "kubeadm: the pod network, installed with its pinned Helm chart."));

  static final Obj NETWORK =
      obj(
          Network.class,
          opt(
                  "vpcCidr",
                  CIDR,
                  null,
                  "CIDR of a new VPC (default 10.0.0.0/16 when vpcId is not set).")
              .resolvedBy(
                  (s, cidr) -> cidr != null || s.get("vpcId") != null ? cidr : "10.0.0.0/16"),
          opt(
                  "subnetCidr",
                  CIDR,
                  null,
                  "CIDR of the new subnet, inside vpcCidr (default: the first /20).")
              .resolvedBy(
                  (s, cidr) ->
                      cidr != null || s.get("vpcId") != null
                          ? cidr
                          : s.text("vpcCidr").map(SpecShape::firstSlash20).orElse(null)),
          opt(
              "vpcId",
              VPC_ID,
              null,
              "An existing VPC to use instead of creating one (with subnetId)."),
          opt("subnetId", SUBNET_ID, null, "An existing subnet to use (with vpcId)."),
          opt(
              "sshIngressCidrs",
              new ListOf(CIDR, 0, 32),
              null,
              "CIDRs allowed to SSH to the nodes; empty means no SSH (use SSM)."),
          opt(
                  "internet",
                  new Enum(Keyword.spellings(Internet.class)),
                  null,
                  "The nodes' way to the internet: nat (a NAT gateway; default for a VPC gpugen"
                      + " creates), none (air-gapped), existing (the routes of vpcId; its default).")
              .resolvedBy(
                  (s, internet) ->
                      internet != null
                          ? internet
                          : (s.get("vpcId") != null ? Internet.EXISTING : Internet.NAT).spelling()),
          opt(
              "placement",
              new Enum(Keyword.spellings(Placement.class)),
              Placement.CLUSTER.spelling(),
              "EC2 placement group strategy; cluster for multi-node training."),
          opt(
                  "fabric",
                  new Enum(Keyword.spellings(Fabric.class)),
                  null,
                  "GPU interconnect between nodes; when not written, each pool gets efa where its EC2 type has EFA, else tcp.")
              // Written, or efa when every pool's EC2 type has EFA.
              .resolvedBy(
                  (s, fabric) ->
                      fabric != null
                          ? fabric
                          : (awsText(s)
                                      && s.rootList("pools").stream()
                                          .allMatch(p -> s.efaCapable(instanceType(p)))
                                  ? Fabric.EFA
                                  : Fabric.TCP)
                              .spelling()));

  static final Obj LUSTRE =
      obj(
          Lustre.class,
          req(
              "capacityGiB",
              new Int(1200, 2_000_000),
              "FSx for Lustre capacity in GiB (1200, 2400 or multiples of 2400)."),
          opt(
              "deploymentType",
              new Enum(List.of("SCRATCH_1", "SCRATCH_2", "PERSISTENT_1", "PERSISTENT_2")),
              "PERSISTENT_2",
              "FSx for Lustre deployment type."),
          opt(
              "perUnitStorageThroughput",
              new Int(12, 1000),
              null,
              "MB/s per TiB (PERSISTENT types)."),
          opt("mountPoint", ABS_PATH, "/fsx", "Where the nodes mount it."));

  // ansible.connection and ansible.bastion bind into the spec's Connection, not into Ansible.
  static final Field ANSIBLE_CONNECTION =
      opt(
          "connection",
          new Enum(Keyword.spellings(ConnectionMethod.class)),
          null,
          "How Ansible reaches the nodes (aws): ssm = AWS Systems Manager Session Manager (no open port; default when network.sshIngressCidrs is empty), ssh = SSH as the image's login user (default otherwise).");
  static final Field BASTION =
      opt(
          "bastion",
          obj(
              Bastion.class,
              req("host", HOST_NAME, "The jump host's DNS name or IPv4 address."),
              req("user", LOGIN_USER, "The login name on the jump host."),
              opt("port", new Int(1, 65535), 22L, "The jump host's SSH port.")),
          null,
          "An SSH jump host every node is reached through (ProxyJump; connection ssh only).");
  static final Obj CONNECTION =
      obj(
          Connection.class,
          ANSIBLE_CONNECTION
              .as("method")
              .resolvedBy(
                  (s, method) ->
                      method != null
                          ? method
                          : (s.rootList("network.sshIngressCidrs").isEmpty()
                                  ? ConnectionMethod.SSM
                                  : ConnectionMethod.SSH)
                              .spelling()),
          BASTION);

  static final Obj ROOT =
      withEnvironments(
              obj(
                      req("apiVersion", new Enum(List.of("gpugen/v1")), "Spec version: gpugen/v1.")
                          .as(""),
                      req("kind", new Enum(List.of("GpuCluster")), "Always GpuCluster.").as(""),
                      req(
                          "metadata",
                          obj(
                              Metadata.class,
                              req(
                                  "name",
                                  CLUSTER_NAME,
                                  "Cluster name; in resource names and the gpugen:cluster tag."),
                              opt(
                                      "environment",
                                      ENV_NAME,
                                      null,
                                      "The gpugen:environment tag (--env NAME sets it to NAME).")
                                  // --env NAME sets it to NAME.
                                  .resolvedBy(
                                      (s, env) -> s.environment().<Object>map(e -> e).orElse(env))),
                          "Cluster identity."),
                      req(
                          "cloud",
                          obj(
                              Cloud.class,
                              req(
                                  "provider",
                                  new Enum(Keyword.spellings(Provider.class)),
                                  "Where the nodes run."),
                              opt("region", REGION, null, "Cloud region (aws, gcp)."),
                              opt(
                                      "availabilityZone",
                                      ZONE,
                                      null,
                                      "The one zone all nodes run in (default: <region>a).")
                                  .resolvedBy(
                                      (s, zone) ->
                                          zone != null
                                              ? zone
                                              : s.text("region")
                                                  .map(
                                                      r -> zoneOf(s.text("provider").orElse(""), r))
                                                  .orElse(null)),
                              opt(
                                  "sshKeyName",
                                  KEY_PAIR,
                                  null,
                                  "An existing EC2 key pair for SSH."),
                              opt("project", GCP_PROJECT, null, "The GCP project (gcp)."),
                              opt(
                                  "gke",
                                  obj(
                                      Gke.class,
                                      req("cluster", GKE_CLUSTER, "The GKE cluster's name."),
                                      opt(
                                          "create",
                                          new Bool(),
                                          true,
                                          "Create the cluster (zonal, in availabilityZone); false adds node pools to an existing one."),
                                      opt(
                                          "gpuDriver",
                                          new Enum(Keyword.spellings(GpuDriver.class)),
                                          GpuDriver.OPERATOR.spelling(),
                                          "Who installs the driver: operator = GKE's install disabled and the GPU Operator installs software.driver (Ubuntu nodes); gke = GKE installs its driver (gpuDriverVersion) and device plugin (COS nodes), no operator."),
                                      opt(
                                          "gpuDriverVersion",
                                          new Enum(Keyword.spellings(GkeDriverVersion.class)),
                                          GkeDriverVersion.DEFAULT.spelling(),
                                          "With gpuDriver gke, the driver GKE installs: default = the node image's default driver, latest = its newest (gcp-gke-driver-unverified)."),
                                      opt(
                                          "releaseChannel",
                                          new Enum(Keyword.spellings(ReleaseChannel.class)),
                                          ReleaseChannel.REGULAR.spelling(),
                                          "The release channel of a cluster gpugen creates; node auto-upgrade stays on, as GKE requires in a channel, and a maintenance exclusion holds minor and node upgrades."),
                                      opt(
                                          "version",
                                          GKE_VERSION,
                                          GKE_DEFAULT_VERSION,
                                          "The GKE version of a cluster gpugen creates (its minimum control plane version; new node pools get the control plane's)."),
                                      opt(
                                          "holdUpgradesUntil",
                                          DATE,
                                          null,
                                          "The last day of the maintenance exclusion that holds minor and node upgrades (scope NO_MINOR_OR_NODE_UPGRADES); default: the end of standard support of version's minor, from gpugen's table."),
                                      opt(
                                          "authorizedNetworks",
                                          new ListOf(CIDR, 0, 50),
                                          null,
                                          "CIDRs that may reach the control plane's public endpoint (master authorized networks); required unless privateEndpoint."),
                                      opt(
                                          "privateEndpoint",
                                          new Bool(),
                                          false,
                                          "Only the control plane's private endpoint: reach it from inside the VPC (Terraform, gcloud and the plays then run there); with create: false only (gcp-private-endpoint-unreachable).")),
                                  null,
                                  "GKE settings (gcp)."),
                              opt(
                                  "imds",
                                  obj(
                                      Imds.class,
                                      opt(
                                          "httpTokens",
                                          new Enum(Keyword.spellings(HttpTokens.class)),
                                          HttpTokens.REQUIRED.spelling(),
                                          "required = IMDSv2 only; optional also allows IMDSv1 (a security error, sec-imdsv1-enabled)."),
                                      opt(
                                          "hopLimit",
                                          new Int(1, 64),
                                          1L,
                                          "IMDS PUT response hop limit; 2 lets containers on bridge networks reach IMDS.")),
                                  null,
                                  "EC2 instance metadata service settings (aws)."),
                              opt(
                                      "image",
                                      IMAGE,
                                      null,
                                      "OS image: an OS name resolved by an owner-pinned AMI lookup, or an ami-... id (default: software.os).")
                                  .resolvedBy(
                                      (s, image) -> image != null ? image : s.root("software.os"))),
                          "Cloud provider and location."),
                      opt("network", NETWORK, null, "Network layout."),
                      opt(
                          "mirrors",
                          MIRRORS,
                          null,
                          "Mirrors the nodes install from instead of the public upstreams (required for every source the render uses when network.internet is none)."),
                      opt(
                          "storage",
                          obj(
                              Storage.class,
                              opt("lustre", LUSTRE, null, "FSx for Lustre file system."),
                              opt(
                                  "checkpointBucket",
                                  BUCKET,
                                  null,
                                  "An S3 bucket the nodes may read checkpoints from."),
                              opt(
                                  "retain",
                                  new Bool(),
                                  true,
                                  "Keep the FSx for Lustre file system and the checkpoint bucket (aws):"
                                      + " Terraform refuses any plan that deletes or replaces them, and"
                                      + " gpugen down leaves them; false allows it (docs/terraform.md).")),
                          null,
                          "Shared storage."),
                      req("pools", new ListOf(POOL, 1, 64), "Node pools."),
                      req("software", SOFTWARE, "Cluster-wide GPU software versions."),
                      opt(
                          "kernel",
                          obj(
                              Kernel.class,
                              opt(
                                  "blacklistNouveau",
                                  new Bool(),
                                  true,
                                  "Blacklist the nouveau driver (needed for the NVIDIA driver)."),
                              opt(
                                  "sysctl",
                                  new MapOf(SYSCTL_KEY, SYSCTL_VALUE, 128),
                                  null,
                                  "sysctl settings written to /etc/sysctl.d/.")),
                          null,
                          "Kernel settings."),
                      opt(
                          "nccl",
                          obj(
                              Nccl.class,
                              opt(
                                  "env",
                                  new MapOf(NCCL_KEY, NCCL_VALUE, 128),
                                  null,
                                  "NCCL environment, written to /etc/nccl.conf and the environment.")),
                          null,
                          "NCCL settings."),
                      opt(
                              "kubernetes",
                              KUBERNETES,
                              null,
                              "The Kubernetes cluster the GPU nodes join; without it plays 03-05 skip their Kubernetes parts.")
                          // A gcp spec's kubernetes: with only systemPool names no cluster of its
                          // own.
                          .resolvedBy(
                              (s, k) -> s.get("kubernetes.distribution") != null ? k : null),
                      opt("gitops", GITOPS, null, "GitOps hand-off of the cluster-side components.")
                          // Present with its argocd key only.
                          .resolvedBy((s, g) -> s.get("gitops.argocd") != null ? g : null),
                      opt("validation", VALIDATION, null, "Validation thresholds (play 05)."),
                      opt(
                          "ansible",
                          obj(
                              Ansible.class,
                              opt("forks", new Int(1, 1000), 50L, "Ansible forks."),
                              opt(
                                  "mode",
                                  new Enum(Keyword.spellings(AnsibleMode.class)),
                                  AnsibleMode.PUSH.spelling(),
                                  "push = a controller runs the playbooks over SSH; pull = every node applies the same playbooks to itself at boot (cloud-init user data, aws) and reports its validation."),
                              opt(
                                  "pull",
                                  obj(
                                      Pull.class,
                                      opt(
                                          "source",
                                          new Enum(Keyword.spellings(PullSource.class)),
                                          PullSource.S3.spelling(),
                                          "Where nodes fetch the bundle: s3 = storage.checkpointBucket under gpugen/<cluster>/bundles/<spec sha256>/ (Terraform uploads it); git = gitUrl at gitRef."),
                                      opt(
                                          "gitUrl",
                                          GIT_URL,
                                          null,
                                          "The repository holding the rendered folder (source: git): https:// or ssh://, no credentials."),
                                      opt(
                                          "gitRef",
                                          GIT_REF,
                                          null,
                                          "The tag or commit the nodes check out (source: git)."),
                                      opt(
                                          "gitPath",
                                          REPO_PATH,
                                          null,
                                          "The rendered ansible/ folder inside the repository (default roles-generated/<output folder>/ansible).")),
                                  null,
                                  "Pull mode settings."),
                              ANSIBLE_CONNECTION.as(""),
                              BASTION.as("")),
                          null,
                          "Ansible settings."),
                      opt(
                          "terraform",
                          obj(
                              Terraform.class,
                              opt(
                                  "backend",
                                  obj(
                                      opt(
                                              "s3",
                                              obj(
                                                  S3Backend.class,
                                                  req(
                                                      "bucket",
                                                      BUCKET,
                                                      "The existing bucket holding the state."),
                                                  req("key", STATE_KEY, "The state's object key."),
                                                  opt(
                                                          "region",
                                                          REGION,
                                                          null,
                                                          "The bucket's region (default: cloud.region).")
                                                      .resolvedBy(
                                                          (s, region) ->
                                                              region != null
                                                                  ? region
                                                                  : s.rootText("cloud.region")
                                                                      .orElse(""))),
                                              null,
                                              "State in S3 with S3-native locking (use_lockfile, Terraform 1.10 or newer); renders terraform/backend.tf.")
                                          .as("s3Backend")),
                                  null,
                                  "Where Terraform keeps its state (default: terraform.tfstate in the terraform/ folder).")),
                          null,
                          "Terraform settings (aws, gcp)."),
                      opt(
                          "lint",
                          obj(
                              Lint.class,
                              opt(
                                  "skip",
                                  new ListOf(RULE_ID, 0, 200),
                                  null,
                                  "Rule ids not to run."),
                              opt(
                                  "severity",
                                  new MapOf(
                                      RULE_ID, new Enum(List.of("error", "warning", "info")), 200),
                                  null,
                                  "Severity per rule id."),
                              opt(
                                  "reasons",
                                  new MapOf(RULE_ID, REASON, 200),
                                  null,
                                  "Why a rule is skipped or re-graded, per rule id: required for a"
                                      + " security rule (sec-*), reported as the suppression's"
                                      + " justification in SARIF.")),
                          null,
                          "Linter settings."))
                  // Written at the top level before it was one key for GKE and EKS.
                  .moving("systemPool", "kubernetes.systemPool"))
          .into(
              ClusterSpec.class,
              new Derived("connection", s -> s.bind("ansible", CONNECTION)),
              // One system pool key for every provider: bound from kubernetes.systemPool, which a
              // gcp spec may write without the rest of kubernetes:.
              new Derived("systemPool", s -> s.bind("kubernetes.systemPool", SYSTEM_POOL)),
              new Derived(
                  "environments", s -> List.copyOf(Scope.asMap(s.get("environments")).keySet())),
              new Derived("selectedEnvironment", Scope::environment));

  /** The v1 grammar. */
  public static Obj root() {
    return ROOT;
  }

  /** kubernetes.systemPool: the shapes Terraform's system_pool variable is typed and checked by. */
  public static Obj systemPool() {
    return SYSTEM_POOL;
  }

  /** One entry of {@code pools}: the shapes Terraform's pool variables are typed and checked by. */
  public static Obj pool() {
    return POOL;
  }

  /**
   * Adds {@code environments}: overlays that may change any section but identity and lint, with
   * pools addressed by name. Derived from the base grammar so the two cannot drift apart.
   */
  private static Obj withEnvironments(Obj base) {
    List<Field> overlay = new ArrayList<>();
    for (Field f : base.fields()) {
      switch (f.key()) {
        case "apiVersion", "kind", "metadata", "lint" -> {}
        case "pools" ->
            overlay.add(
                opt(
                    "pools",
                    new MapOf(POOL_NAME, POOL.allOptional(), 64),
                    null,
                    "Pool overrides, by pool name."));
        case "cloud" -> {
          Obj cloud = (Obj) f.shape();
          List<Field> keep = new ArrayList<>(cloud.allOptional().fields());
          keep.removeIf(c -> c.key().equals("provider"));
          overlay.add(opt("cloud", new Obj(keep), null, f.doc()));
        }
        default ->
            overlay.add(
                opt(
                    f.key(),
                    f.shape() instanceof Obj o ? o.allOptional() : f.shape(),
                    null,
                    f.doc()));
      }
    }
    List<Field> all = new ArrayList<>(base.fields());
    all.add(
        opt(
                "environments",
                new MapOf(ENV_NAME, new Obj(overlay, null, base.moved()), 32),
                null,
                "Overlays selected with --env NAME (e.g. dev, prod).")
            // Read by the reader, which applies the selected one before binding.
            .as(""));
    return new Obj(all, null, base.moved());
  }

  /** The default zone of a region: us-east-1a on AWS, us-central1-a on GCP. */
  private static String zoneOf(String provider, String region) {
    return switch (provider) {
      case "aws" -> region + "a";
      case "gcp" -> region + "-a";
      default -> null;
    };
  }

  /** Whether the spec's cloud.provider, still as written, is aws. */
  private static boolean awsText(Scope s) {
    return s.rootText("cloud.provider").orElse("").equals(Provider.AWS.spelling());
  }

  /** 10.42.0.0/16 gives 10.42.0.0/20: the first /20 (or the whole block if it is smaller). */
  private static String firstSlash20(String cidr) {
    String[] parts = cidr.split("/");
    int bits = Integer.parseInt(parts[1]);
    return parts[0] + "/" + Math.max(bits, 20);
  }

  /** Whether every pool of the spec has a taint that keeps untolerating pods off its nodes. */
  private static boolean gcp(Scope s) {
    return s.rootText("cloud.provider").orElse("").equals(Provider.GCP.spelling());
  }

  private static boolean everyPoolTainted(Scope s) {
    return s.rootList("pools").stream()
        .allMatch(
            p ->
                Scope.asMap(p).get("taints") instanceof List<?> taints
                    && taints.stream()
                        .map(t -> Scope.asMap(t).get("effect"))
                        .anyMatch(e -> "NoSchedule".equals(e) || "NoExecute".equals(e)));
  }

  private static String instanceType(Object pool) {
    Object type = Scope.asMap(pool).get("instanceType");
    return type == null ? "" : (String) type;
  }

  /** {@code over} merged into {@code base}, mapping by mapping (a pool's software overrides). */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepMerge(Object base, Object over) {
    Map<String, Object> out = new LinkedHashMap<>(Scope.asMap(base));
    Scope.asMap(over)
        .forEach(
            (key, value) ->
                out.merge(
                    key,
                    value,
                    (a, b) -> a instanceof Map && b instanceof Map ? deepMerge(a, b) : b));
    return out;
  }

  private static Str str(String regex, String what, int maxLength) {
    return new Str(Pattern.compile(regex), what, maxLength, false);
  }

  private static Obj obj(Field... fields) {
    return new Obj(List.of(fields));
  }

  private static Obj obj(Class<? extends Record> type, Field... fields) {
    return new Obj(List.of(fields)).into(type);
  }

  private static Field req(String key, Shape shape, String doc) {
    return new Field(key, shape, true, null, doc);
  }

  private static Field opt(String key, Shape shape, Object defaultValue, String doc) {
    return new Field(key, shape, false, defaultValue, doc);
  }
}
