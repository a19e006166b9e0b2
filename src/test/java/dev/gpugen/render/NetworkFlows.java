package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Cni;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.PullSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The flow table: every network flow an AWS deploy of gpugen needs, per deploy path, each with the
 * public source that says it is needed. {@link FlowCheck} holds the applied Terraform against it in
 * both directions: each required flow must be allowed (an egress rule on the source, an ingress
 * rule on the destination, a route), and each flow the security groups allow must be one the table
 * lists. docs/terraform.md's "Network flows" is this table, written by {@link #markdown()} ({@code
 * NetworkFlowTableTest} keeps it in step).
 *
 * <p>The table is written from AWS's, Kubernetes' and the CNIs' documentation, not from the
 * Terraform it checks.
 */
final class NetworkFlows {
  private NetworkFlows() {}

  /** Who sends or receives: a security group's members, a set of CIDRs, or AWS's services. */
  enum Party {
    NODES("GPU nodes", "node security group"),
    CONTROL_PLANE("kubeadm control plane", "control-plane security group"),
    API_LB("kubeadm API load balancer", "its security group, TCP listener 6443"),
    EKS("EKS control plane", "the cluster security group EKS creates"),
    ENDPOINTS("VPC interface endpoints", "endpoint security group"),
    LUSTRE("FSx for Lustre file servers", "Lustre security group"),
    CONTROLLER_SSH("controller or bastion", "`network.sshIngressCidrs`"),
    CONTROLLER_API("controller or bastion", "`kubernetes.apiIngressCidrs`"),
    INTERNET("the internet", "0.0.0.0/0 through the NAT gateway or the VPC's own routes"),
    S3("S3", "the gateway endpoint's prefix list"),
    AWS_APIS("AWS APIs", "an interface endpoint with private DNS, else the internet route");

    final String label;
    final String how;

    Party(String label, String how) {
      this.label = label;
      this.how = how;
    }

    /** Members are instances or network interfaces in the VPC, behind security groups. */
    boolean inVpc() {
      return ordinal() <= LUSTRE.ordinal();
    }
  }

  /**
   * Protocol and ports: {@code tcp}, {@code udp}, {@code icmp} (from = type, to = code, -1 any), an
   * IP protocol number ({@code 4}: IP-in-IP, no ports) or {@code all}.
   */
  record Ports(String protocol, int from, int to) {
    static final Ports ALL = new Ports("all", -1, -1);

    static Ports tcp(int port) {
      return new Ports("tcp", port, port);
    }

    static Ports tcp(int from, int to) {
      return new Ports("tcp", from, to);
    }

    static Ports udp(int port) {
      return new Ports("udp", port, port);
    }

    static Ports icmp(int type, int code) {
      return new Ports("icmp", type, code);
    }

    static Ports ipProtocol(int number) {
      return new Ports(Integer.toString(number), -1, -1);
    }

    @Override
    public String toString() {
      return switch (protocol) {
        case "all" -> "all traffic";
        case "icmp" ->
            "ICMP " + (from < 0 ? "any type" : "type " + from + (to < 0 ? "" : " code " + to));
        case "tcp", "udp" ->
            protocol.toUpperCase(java.util.Locale.ROOT)
                + " "
                + (from < 0 ? "all ports" : from == to ? from : from + "-" + to);
        case "4" -> "IP protocol 4 (IP-in-IP)";
        default -> "IP protocol " + protocol;
      };
    }
  }

  /** Must the flow be allowed, or may it merely be? */
  enum Need {
    REQUIRED,
    PERMITTED
  }

  /** What a row's conditions read: the spec and the plan of one render. */
  record Deploy(ClusterSpec spec, ClusterPlan plan) {
    Optional<ClusterSpec.Kubernetes> kubernetes() {
      return spec.kubernetes();
    }

    boolean eks() {
      return kubernetes().filter(ClusterSpec.Kubernetes::eks).isPresent();
    }

    boolean kubeadm() {
      return kubernetes().filter(ClusterSpec.Kubernetes::kubeadm).isPresent();
    }

    int controlPlanes() {
      return kubeadm() ? kubernetes().get().controlPlaneCount() : 0;
    }

    boolean cni(Cni cni) {
      return kubeadm() && kubernetes().get().cni() == cni;
    }

    List<String> apiCidrs() {
      return eks() || kubeadm() ? kubernetes().get().apiIngressCidrs() : List.of();
    }

    List<String> sshCidrs() {
      return spec.network().sshIngressCidrs();
    }

    boolean ssm() {
      return spec.connection().ssm();
    }

    boolean pullFromS3() {
      return spec.ansible().pullMode() && spec.ansible().pull().source() == PullSource.S3;
    }

    boolean lustre() {
      return spec.storage().lustre().isPresent();
    }

    boolean internetRoute() {
      return spec.network().internet() != Internet.NONE;
    }

    boolean interfaceEndpoints() {
      return !plan.vpcInterfaceEndpoints().isEmpty();
    }

    /** Which CIDRs a controller party stands for in this deploy. */
    List<String> cidrs(Party p) {
      return switch (p) {
        case CONTROLLER_SSH -> sshCidrs();
        case CONTROLLER_API -> apiCidrs();
        default -> List.of();
      };
    }
  }

  /**
   * One row of the table.
   *
   * @param id a stable name, printed with every finding about the row
   * @param from the sender
   * @param to the receiver (for {@link Party#AWS_APIS}: {@code services})
   * @param ports what the sender opens to the receiver
   * @param services {@link Party#AWS_APIS} only: the services (interface endpoint names; s3 the
   *     gateway endpoint)
   * @param when the deploy path the row belongs to, as the docs say it
   * @param need whether the path needs it or only may have it, per deploy
   * @param optional whether the row only ever permits (the docs say "may")
   * @param why what uses the flow
   * @param source the public document that says it is needed
   */
  record Row(
      String id,
      Party from,
      Party to,
      List<Ports> ports,
      List<String> services,
      String when,
      Function<Deploy, Optional<Need>> need,
      boolean optional,
      String why,
      String source) {
    Row {
      ports = List.copyOf(ports);
      services = List.copyOf(services);
    }

    @Override
    public String toString() {
      return "["
          + id
          + "] "
          + from.label
          + " -> "
          + to.label
          + (services.isEmpty() ? "" : " " + services)
          + " "
          + ports
          + " ("
          + when
          + "; "
          + source
          + ")";
    }
  }

  private static final String EFA =
      "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa-start.html#efa-start-security";
  private static final String K8S_PORTS =
      "https://kubernetes.io/docs/reference/networking/ports-and-protocols/";
  private static final String KUBEADM_HA =
      "https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/";
  private static final String NLB_SG =
      "https://docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-security-groups.html";
  private static final String EKS_SG =
      "https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html";
  private static final String EKS_ENDPOINT =
      "https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html";
  private static final String EKS_PRIVATE =
      "https://docs.aws.amazon.com/eks/latest/userguide/private-clusters.html";
  private static final String CILIUM =
      "https://docs.cilium.io/en/stable/operations/system_requirements/#firewall-rules";
  private static final String CALICO =
      "https://docs.tigera.io/calico/latest/getting-started/kubernetes/requirements#network-requirements";
  private static final String FSX =
      "https://docs.aws.amazon.com/fsx/latest/LustreGuide/limit-access-security-groups.html";
  private static final String SSM =
      "https://docs.aws.amazon.com/systems-manager/latest/userguide/setup-create-vpc.html";
  private static final String SSH =
      "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/security-group-rules-reference.html";
  private static final String NAT =
      "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-nat-gateway.html";
  private static final String S3_GATEWAY =
      "https://docs.aws.amazon.com/vpc/latest/privatelink/vpc-endpoints-s3.html";
  private static final String PULL_TAG =
      "https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateTags.html";

  /** Required where {@code when} holds, absent elsewhere. */
  private static Function<Deploy, Optional<Need>> requiredIf(Predicate<Deploy> when) {
    return d -> when.test(d) ? Optional.of(Need.REQUIRED) : Optional.empty();
  }

  /** Permitted where {@code when} holds, absent elsewhere. */
  private static Function<Deploy, Optional<Need>> permittedIf(Predicate<Deploy> when) {
    return d -> when.test(d) ? Optional.of(Need.PERMITTED) : Optional.empty();
  }

  private static Row row(
      String id,
      Party from,
      Party to,
      List<Ports> ports,
      String when,
      Function<Deploy, Optional<Need>> need,
      String why,
      String source) {
    return new Row(id, from, to, ports, List.of(), when, need, false, why, source);
  }

  /** A row that only permits: a flow the path may have but does not need. */
  private static Row may(
      String id,
      Party from,
      Party to,
      List<Ports> ports,
      String when,
      Predicate<Deploy> applies,
      String why,
      String source) {
    return new Row(id, from, to, ports, List.of(), when, permittedIf(applies), true, why, source);
  }

  private static Row aws(
      String id,
      Party from,
      List<String> services,
      String when,
      Predicate<Deploy> required,
      String why,
      String source) {
    return new Row(
        id,
        from,
        Party.AWS_APIS,
        List.of(Ports.tcp(443)),
        services,
        when,
        requiredIf(required),
        false,
        why,
        source);
  }

  /** The pod network's ports between hosts, per CNI as gpugen configures it. */
  private static final List<Ports> CILIUM_PORTS =
      List.of(Ports.udp(8472), Ports.tcp(4240), Ports.icmp(8, 0));

  private static final List<Ports> CALICO_PORTS =
      List.of(Ports.tcp(179), Ports.ipProtocol(4), Ports.tcp(5473));

  private static final List<Ports> LUSTRE_PORTS = List.of(Ports.tcp(988), Ports.tcp(1018, 1023));

  private static final List<Ports> WEB = List.of(Ports.tcp(443), Ports.tcp(80));

  /** The table. */
  static final List<Row> ROWS = rows();

  private static List<Row> rows() {
    List<Row> r = new ArrayList<>();
    // Among the GPU nodes.
    r.add(
        row(
            "nodes-all",
            Party.NODES,
            Party.NODES,
            List.of(Ports.ALL),
            "always",
            requiredIf(d -> true),
            "EFA needs a security group that allows all traffic to and from itself; NCCL's"
                + " sockets and the pods (VPC CNI: pod addresses on the nodes' interfaces) use any"
                + " port",
            EFA));
    // The controller.
    r.add(
        row(
            "ssh-nodes",
            Party.CONTROLLER_SSH,
            Party.NODES,
            List.of(Ports.tcp(22)),
            "`sshIngressCidrs` set (required with `connection: ssh`)",
            d ->
                d.sshCidrs().isEmpty()
                    ? Optional.empty()
                    : Optional.of(d.ssm() ? Need.PERMITTED : Need.REQUIRED),
            "Ansible over SSH, directly or as the bastion's ProxyJump",
            SSH));
    r.add(
        row(
            "ssh-control-plane",
            Party.CONTROLLER_SSH,
            Party.CONTROL_PLANE,
            List.of(Ports.tcp(22)),
            "kubeadm, `sshIngressCidrs` set",
            d ->
                !d.kubeadm() || d.sshCidrs().isEmpty()
                    ? Optional.empty()
                    : Optional.of(d.ssm() ? Need.PERMITTED : Need.REQUIRED),
            "play 02b (kubeadm init and join) over SSH",
            SSH));
    r.add(
        row(
            "api-eks-from-controller",
            Party.CONTROLLER_API,
            Party.EKS,
            List.of(Ports.tcp(443)),
            "eks, `apiIngressCidrs` set",
            requiredIf(d -> d.eks() && !d.apiCidrs().isEmpty()),
            "plays 03-05 and kubectl reach the private endpoint from a connected network (the"
                + " cluster security group must allow 443 from it)",
            EKS_ENDPOINT));
    r.add(
        row(
            "api-kubeadm-from-controller",
            Party.CONTROLLER_API,
            Party.CONTROL_PLANE,
            List.of(Ports.tcp(6443)),
            "kubeadm with 1 control-plane host, `apiIngressCidrs` set",
            requiredIf(d -> d.controlPlanes() == 1 && !d.apiCidrs().isEmpty()),
            "Helm (the CNI) and plays 03-05 call the API server, the endpoint",
            K8S_PORTS));
    r.add(
        row(
            "api-lb-from-controller",
            Party.CONTROLLER_API,
            Party.API_LB,
            List.of(Ports.tcp(6443)),
            "kubeadm with 3 control-plane hosts, `apiIngressCidrs` set",
            requiredIf(d -> d.controlPlanes() > 1 && !d.apiCidrs().isEmpty()),
            "Helm (the CNI) and plays 03-05 call the control-plane endpoint, the load balancer",
            KUBEADM_HA));
    // EKS.
    r.add(
        row(
            "eks-api-from-nodes",
            Party.NODES,
            Party.EKS,
            List.of(Ports.tcp(443)),
            "eks",
            requiredIf(Deploy::eks),
            "kubelet and the pods reach the API server",
            EKS_SG));
    r.add(
        row(
            "eks-kubelet",
            Party.EKS,
            Party.NODES,
            List.of(Ports.tcp(10250)),
            "eks",
            requiredIf(Deploy::eks),
            "the API server calls kubelet (logs, exec, metrics)",
            EKS_SG));
    r.add(
        may(
            "eks-to-nodes",
            Party.EKS,
            Party.NODES,
            List.of(Ports.ALL),
            "eks",
            Deploy::eks,
            "EKS's default rules allow all traffic between a cluster and its nodes: webhooks and"
                + " aggregated APIs on any pod port",
            EKS_SG));
    r.add(
        may(
            "eks-self",
            Party.EKS,
            Party.EKS,
            List.of(Ports.ALL),
            "eks",
            Deploy::eks,
            "the inbound rule EKS puts on its cluster security group",
            EKS_SG));
    r.add(
        may(
            "eks-outbound",
            Party.EKS,
            Party.INTERNET,
            List.of(Ports.ALL),
            "eks",
            Deploy::eks,
            "the outbound rule EKS puts on its cluster security group",
            EKS_SG));
    // kubeadm on AWS.
    r.add(
        row(
            "kubeadm-api-from-nodes",
            Party.NODES,
            Party.CONTROL_PLANE,
            List.of(Ports.tcp(6443)),
            "kubeadm",
            requiredIf(Deploy::kubeadm),
            "kubelet and kubeadm join (1 host: the endpoint), and the pods through the kubernetes"
                + " Service, whose endpoints are the control-plane hosts",
            K8S_PORTS));
    r.add(
        row(
            "kubeadm-lb-from-nodes",
            Party.NODES,
            Party.API_LB,
            List.of(Ports.tcp(6443)),
            "kubeadm with 3 control-plane hosts",
            requiredIf(d -> d.controlPlanes() > 1),
            "kubeadm join and kubelet use the control-plane endpoint, the load balancer",
            KUBEADM_HA));
    r.add(
        row(
            "kubeadm-lb-from-control-plane",
            Party.CONTROL_PLANE,
            Party.API_LB,
            List.of(Ports.tcp(6443)),
            "kubeadm with 3 control-plane hosts",
            requiredIf(d -> d.controlPlanes() > 1),
            "kubeadm init calls its own endpoint; the other hosts join through it",
            KUBEADM_HA));
    r.add(
        row(
            "kubeadm-lb-to-targets",
            Party.API_LB,
            Party.CONTROL_PLANE,
            List.of(Ports.tcp(6443)),
            "kubeadm with 3 control-plane hosts",
            requiredIf(d -> d.controlPlanes() > 1),
            "the load balancer forwards and health-checks (client IP preservation off: the"
                + " targets see the load balancer's addresses)",
            NLB_SG));
    r.add(
        row(
            "kubeadm-kubelet",
            Party.CONTROL_PLANE,
            Party.NODES,
            List.of(Ports.tcp(10250)),
            "kubeadm",
            requiredIf(Deploy::kubeadm),
            "the API servers call kubelet (logs, exec, port-forward)",
            K8S_PORTS));
    r.add(
        row(
            "kubeadm-control-plane-peers",
            Party.CONTROL_PLANE,
            Party.CONTROL_PLANE,
            List.of(Ports.tcp(2379, 2380), Ports.tcp(6443), Ports.tcp(10250)),
            "kubeadm with 3 control-plane hosts",
            requiredIf(d -> d.controlPlanes() > 1),
            "stacked etcd's client and peer ports, the API server and kubelet between the hosts",
            K8S_PORTS));
    for (Cni cni : Cni.values()) {
      List<Ports> ports = cni == Cni.CILIUM ? CILIUM_PORTS : CALICO_PORTS;
      String source = cni == Cni.CILIUM ? CILIUM : CALICO;
      String why =
          cni == Cni.CILIUM
              ? "Cilium's VXLAN tunnel and health checks"
              : "Calico's BGP, IP-in-IP and Typha";
      r.add(
          row(
              cni + "-nodes-to-control-plane",
              Party.NODES,
              Party.CONTROL_PLANE,
              ports,
              "kubeadm, `cni: " + cni + "`",
              requiredIf(d -> d.cni(cni)),
              why,
              source));
      r.add(
          row(
              cni + "-control-plane-to-nodes",
              Party.CONTROL_PLANE,
              Party.NODES,
              ports,
              "kubeadm, `cni: " + cni + "`",
              requiredIf(d -> d.cni(cni)),
              why,
              source));
      r.add(
          row(
              cni + "-control-plane-peers",
              Party.CONTROL_PLANE,
              Party.CONTROL_PLANE,
              ports,
              "kubeadm with 3 control-plane hosts, `cni: " + cni + "`",
              requiredIf(d -> d.cni(cni) && d.controlPlanes() > 1),
              why,
              source));
    }
    // FSx for Lustre.
    r.add(
        row(
            "lustre-clients",
            Party.NODES,
            Party.LUSTRE,
            LUSTRE_PORTS,
            "`storage.lustre`",
            requiredIf(Deploy::lustre),
            "the Lustre client (LNet 988, the file servers' 1018-1023)",
            FSX));
    r.add(
        row(
            "lustre-to-clients",
            Party.LUSTRE,
            Party.NODES,
            LUSTRE_PORTS,
            "`storage.lustre`",
            requiredIf(Deploy::lustre),
            "the file servers connect back to the clients",
            FSX));
    r.add(
        row(
            "lustre-servers",
            Party.LUSTRE,
            Party.LUSTRE,
            LUSTRE_PORTS,
            "`storage.lustre`",
            requiredIf(Deploy::lustre),
            "among the file servers",
            FSX));
    // Out of the VPC.
    r.add(
        row(
            "web-nodes",
            Party.NODES,
            Party.INTERNET,
            WEB,
            "`internet: nat` or `existing` (with `none` there is no route)",
            d -> Optional.of(d.internetRoute() ? Need.REQUIRED : Need.PERMITTED),
            "package repositories (Ubuntu's over HTTP), NVIDIA's repositories and NGC, container"
                + " registries, AWS APIs without endpoints",
            NAT));
    r.add(
        row(
            "web-control-plane",
            Party.CONTROL_PLANE,
            Party.INTERNET,
            WEB,
            "kubeadm, `internet: nat` or `existing`",
            d ->
                !d.kubeadm()
                    ? Optional.empty()
                    : Optional.of(d.internetRoute() ? Need.REQUIRED : Need.PERMITTED),
            "pkgs.k8s.io, Ubuntu's packages, registry.k8s.io, AWS APIs",
            NAT));
    r.add(
        row(
            "endpoints-from-nodes",
            Party.NODES,
            Party.ENDPOINTS,
            List.of(Ports.tcp(443)),
            "`internet: none` (gpugen's interface endpoints)",
            requiredIf(Deploy::interfaceEndpoints),
            "AWS APIs through the interface endpoints",
            SSM));
    r.add(
        row(
            "endpoints-from-control-plane",
            Party.CONTROL_PLANE,
            Party.ENDPOINTS,
            List.of(Ports.tcp(443)),
            "kubeadm, `internet: none`",
            requiredIf(d -> d.kubeadm() && d.interfaceEndpoints()),
            "AWS APIs through the interface endpoints",
            SSM));
    r.add(
        may(
            "s3-gateway-nodes",
            Party.NODES,
            Party.S3,
            List.of(Ports.tcp(443)),
            "a VPC gpugen creates (`allow_web_egress = false` names the prefix list)",
            d -> true,
            "S3 through the free gateway endpoint",
            S3_GATEWAY));
    r.add(
        may(
            "s3-gateway-control-plane",
            Party.CONTROL_PLANE,
            Party.S3,
            List.of(Ports.tcp(443)),
            "kubeadm",
            Deploy::kubeadm,
            "S3 through the free gateway endpoint",
            S3_GATEWAY));
    // AWS's services, through an endpoint or the internet.
    r.add(
        aws(
            "aws-ssm-nodes",
            Party.NODES,
            List.of("ssm", "ssmmessages", "ec2messages"),
            "`connection: ssm`",
            Deploy::ssm,
            "the SSM agent: Ansible's Session Manager connection",
            SSM));
    r.add(
        aws(
            "aws-ssm-control-plane",
            Party.CONTROL_PLANE,
            List.of("ssm", "ssmmessages", "ec2messages"),
            "kubeadm, `connection: ssm`",
            d -> d.kubeadm() && d.ssm(),
            "the SSM agent: Ansible's Session Manager connection",
            SSM));
    r.add(
        aws(
            "aws-s3-nodes",
            Party.NODES,
            List.of("s3"),
            "`checkpointBucket`, `connection: ssm` or pull mode from S3",
            d -> d.spec().storage().checkpointBucket().isPresent() || d.ssm() || d.pullFromS3(),
            "checkpoints, the SSM connection's file transfers, the pull bundle",
            S3_GATEWAY));
    r.add(
        aws(
            "aws-s3-control-plane",
            Party.CONTROL_PLANE,
            List.of("s3"),
            "kubeadm, `connection: ssm`",
            d -> d.kubeadm() && d.ssm(),
            "the SSM connection's file transfers (play 02b on the control plane)",
            S3_GATEWAY));
    r.add(
        aws(
            "aws-eks-nodes",
            Party.NODES,
            List.of("ec2", "ecr.api", "ecr.dkr", "eks-auth", "sts", "s3"),
            "eks",
            Deploy::eks,
            "the VPC CNI (EC2), add-on images (ECR, layers in S3), Pod Identity (EKS Auth), IAM"
                + " roles for service accounts (STS)",
            EKS_PRIVATE));
    r.add(
        aws(
            "aws-pull-nodes",
            Party.NODES,
            List.of("ec2"),
            "pull mode",
            d -> d.spec().ansible().pullMode(),
            "the node tags itself with its validation result",
            PULL_TAG));
    return List.copyOf(r);
  }

  /** The rows a deploy has, with their need in it. */
  static List<Applicable> of(Deploy d) {
    List<Applicable> out = new ArrayList<>();
    for (Row row : ROWS) {
      row.need().apply(d).ifPresent(n -> out.add(new Applicable(row, n)));
    }
    return out;
  }

  /** A row of a deploy. */
  record Applicable(Row row, Need need) {}

  /** The table as docs/terraform.md shows it. */
  static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("| id | from | to | protocol and ports | when | why | source |\n");
    b.append("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (Row row : ROWS) {
      b.append("| `")
          .append(row.id())
          .append("` | ")
          .append(row.from().label)
          .append(" (")
          .append(row.from().how)
          .append(") | ")
          .append(row.to().label)
          .append(row.services().isEmpty() ? "" : ": " + String.join(", ", row.services()))
          .append(" (")
          .append(row.to().how)
          .append(") | ")
          .append(String.join(", ", row.ports().stream().map(Ports::toString).toList()))
          .append(" | ")
          .append(cell(row.when()))
          .append(row.optional() ? " (may)" : "")
          .append(" | ")
          .append(cell(row.why()))
          .append(" | <")
          .append(row.source())
          .append("> |\n");
    }
    return b.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
