#
# kubernetes.distribution eks (eks_enabled): the EKS control plane the GPU nodes join, and what
# the nodes need to join it; nothing without it. The nodes stay gpugen's own instances (launch
# templates with EFA interfaces, placement groups, spot, IMDSv2: modules/pool); at first boot each
# runs the join script of its launch template's user data (local.eks_join below, pools.tf), so
# kubelet registers with the pool's labels and taints before any pod can be scheduled.
#
# Sources (AWS, Amazon EKS User Guide): cluster IAM role
# https://docs.aws.amazon.com/eks/latest/userguide/cluster-iam-role.html ; node IAM role
# https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html ; access entries and
# access policies https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html ,
# https://docs.aws.amazon.com/eks/latest/userguide/access-policies.html ; endpoint access
# https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html ; subnets in two
# Availability Zones https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html ;
# security groups https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html ;
# control-plane logs https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html ;
# secrets encryption https://docs.aws.amazon.com/eks/latest/userguide/enable-kms.html ; add-ons
# https://docs.aws.amazon.com/eks/latest/userguide/workloads-add-ons-available-eks.html ; the
# IAM OIDC provider https://docs.aws.amazon.com/eks/latest/userguide/enable-iam-roles-for-service-accounts.html .

################################################################################
# Control-plane subnets: EKS needs subnets in at least two Availability Zones
################################################################################

locals {
  # The node subnet, plus one more in another zone: a /28 of the VPC gpugen creates (the
  # second-to-last /28, beside the NAT subnet in the last), or eks_subnet_ids in an existing VPC.
  eks_extra_subnet_cidr = !var.eks_enabled || !local.create_vpc ? null : coalesce(
    var.eks_subnet_cidr,
    cidrsubnet(var.vpc_cidr, 28 - tonumber(split("/", var.vpc_cidr)[1]), pow(2, 28 - tonumber(split("/", var.vpc_cidr)[1])) - 2),
  )
  # Services get addresses from a range outside the VPC: 10.100.0.0/16, or 172.20.0.0/16 when the
  # VPC is in 10.0.0.0/8 (what EKS picks when it is not told,
  # https://docs.aws.amazon.com/eks/latest/APIReference/API_KubernetesNetworkConfigRequest.html).
  eks_service_cidr = coalesce(var.eks_service_cidr, startswith(coalesce(var.vpc_cidr, "10."), "10.") ? "172.20.0.0/16" : "10.100.0.0/16")

  eks_extra_subnet_zone = var.eks_subnet_zone != null ? var.eks_subnet_zone : try([for z in sort(data.aws_availability_zones.eks[0].names) : z if z != var.availability_zone][0], null)

  eks_subnet_ids = local.create_vpc ? [local.subnet_id, one(aws_subnet.eks_control_plane[*].id)] : concat([local.subnet_id], var.eks_subnet_ids)

  eks_in_created_vpc = var.eks_enabled && local.create_vpc

  eks_extra_subnet_range = local.eks_extra_subnet_cidr == null ? null : [
    sum([for i, octet in split(".", cidrhost(local.eks_extra_subnet_cidr, 0)) : tonumber(octet) * pow(256, 3 - i)]),
    sum([for i, octet in split(".", cidrhost(local.eks_extra_subnet_cidr, 0)) : tonumber(octet) * pow(256, 3 - i)]) + pow(2, 32 - tonumber(split("/", local.eks_extra_subnet_cidr)[1])) - 1,
  ]
}

data "aws_availability_zones" "eks" {
  count = local.eks_in_created_vpc ? 1 : 0

  state = "available"

  filter {
    name   = "opt-in-status"
    values = ["opt-in-not-required"]
  }
}

resource "aws_subnet" "eks_control_plane" {
  count = local.eks_in_created_vpc ? 1 : 0

  vpc_id                  = aws_vpc.this[0].id
  cidr_block              = local.eks_extra_subnet_cidr
  availability_zone       = local.eks_extra_subnet_zone
  map_public_ip_on_launch = false

  tags = {
    Name = "${local.name}-eks-control-plane"
  }

  lifecycle {
    precondition {
      condition     = local.eks_extra_subnet_range[1] < local.subnet_ranges.nodes[0] || local.subnet_ranges.nodes[1] < local.eks_extra_subnet_range[0]
      error_message = "The EKS control-plane subnet ${local.eks_extra_subnet_cidr} overlaps subnet_cidr ${var.subnet_cidr}: set eks_subnet_cidr to a free /28 of the VPC."
    }

    # A conditional, not ||: Terraform evaluates both operands of ||, and without a NAT gateway
    # (internet: none) local.subnet_ranges has no public entry.
    precondition {
      condition     = contains(keys(local.subnet_ranges), "public") ? (local.eks_extra_subnet_range[1] < local.subnet_ranges.public[0] || local.subnet_ranges.public[1] < local.eks_extra_subnet_range[0]) : true
      error_message = "The EKS control-plane subnet ${local.eks_extra_subnet_cidr} overlaps the NAT subnet: set eks_subnet_cidr to a free /28 of the VPC."
    }

    precondition {
      condition     = local.eks_extra_subnet_zone != null
      error_message = "The region has no Availability Zone besides ${var.availability_zone} that needs no opt-in: set eks_subnet_zone."
    }

    precondition {
      condition     = coalesce(var.eks_subnet_zone, "-") != var.availability_zone
      error_message = "The eks_subnet_zone must differ from availability_zone: EKS needs subnets in two zones."
    }
  }
}

resource "aws_route_table_association" "eks_control_plane" {
  count = local.eks_in_created_vpc ? 1 : 0

  subnet_id      = aws_subnet.eks_control_plane[0].id
  route_table_id = aws_route_table.nodes[0].id
}

check "eks_subnets" {
  assert {
    condition     = !var.eks_enabled || local.create_vpc || length(var.eks_subnet_ids) > 0
    error_message = "An existing VPC needs eks_subnet_ids: at least one more subnet, in another Availability Zone than subnet_id, for the EKS control plane's network interfaces."
  }
}

################################################################################
# Cluster IAM role
################################################################################

data "aws_iam_policy_document" "eks_assume_role" {
  count = var.eks_enabled ? 1 : 0

  statement {
    sid     = "EKSAssumeRole"
    actions = ["sts:AssumeRole", "sts:TagSession"]

    principals {
      type        = "Service"
      identifiers = ["eks.${data.aws_partition.current.dns_suffix}"]
    }
  }
}

resource "aws_iam_role" "eks" {
  count = var.eks_enabled ? 1 : 0

  name_prefix           = "${substr(local.name, 0, 30)}-eks-"
  description           = "gpugen EKS control plane of cluster ${var.cluster_name}"
  assume_role_policy    = data.aws_iam_policy_document.eks_assume_role[0].json
  permissions_boundary  = var.iam_permissions_boundary
  force_detach_policies = true
}

resource "aws_iam_role_policy_attachment" "eks_cluster" {
  count = var.eks_enabled ? 1 : 0

  role       = aws_iam_role.eks[0].name
  policy_arn = "arn:${data.aws_partition.current.partition}:iam::aws:policy/AmazonEKSClusterPolicy"
}

################################################################################
# What the node role needs to be an EKS node: kubelet's calls, image pulls from ECR, and the VPC
# CNI's network interfaces (the vpc-cni add-on runs with the node's role).
################################################################################

resource "aws_iam_role_policy_attachment" "nodes_eks" {
  for_each = toset(var.eks_enabled ? ["AmazonEKSWorkerNodePolicy", "AmazonEC2ContainerRegistryReadOnly", "AmazonEKS_CNI_Policy"] : [])

  role       = aws_iam_role.nodes.name
  policy_arn = "arn:${data.aws_partition.current.partition}:iam::aws:policy/${each.key}"
}

################################################################################
# Secrets encryption and control-plane logs
################################################################################

resource "aws_kms_key" "eks" {
  count = var.eks_enabled && var.kms_key_id == null ? 1 : 0

  description             = "gpugen: envelope encryption of the Kubernetes secrets of EKS cluster ${local.name}"
  enable_key_rotation     = true
  deletion_window_in_days = 30
}

# Created before the cluster, so that EKS writes into a group with a retention period instead of
# creating one that keeps logs forever.
resource "aws_cloudwatch_log_group" "eks" {
  count = var.eks_enabled ? 1 : 0

  name              = "/aws/eks/${local.name}/cluster"
  retention_in_days = var.eks_log_retention_days
}

################################################################################
# The cluster
################################################################################

resource "aws_eks_cluster" "this" {
  count = var.eks_enabled ? 1 : 0

  name     = local.name
  version  = var.kubernetes_version
  role_arn = aws_iam_role.eks[0].arn

  # Access entries only (no aws-auth ConfigMap): the node role and the admins below.
  access_config {
    authentication_mode                         = "API"
    bootstrap_cluster_creator_admin_permissions = var.eks_creator_admin
  }

  # vpc-cni, kube-proxy and CoreDNS come as managed add-ons (below), pinned per minor, not as the
  # unmanaged defaults EKS would otherwise install.
  bootstrap_self_managed_addons = false

  vpc_config {
    subnet_ids              = local.eks_subnet_ids
    endpoint_private_access = true
    endpoint_public_access  = var.eks_endpoint_public_access
    public_access_cidrs     = var.eks_endpoint_public_access ? var.eks_public_access_cidrs : null
  }

  encryption_config {
    resources = ["secrets"]

    provider {
      key_arn = coalesce(var.kms_key_id, one(aws_kms_key.eks[*].arn))
    }
  }

  # Set rather than left to EKS, so that the DNS address kubelet is given (the range's .10) is
  # known before the cluster exists; EKS's own default is the same choice.
  kubernetes_network_config {
    ip_family         = "ipv4"
    service_ipv4_cidr = local.eks_service_cidr
  }

  enabled_cluster_log_types = ["api", "audit", "authenticator", "controllerManager", "scheduler"]

  depends_on = [
    aws_iam_role_policy_attachment.eks_cluster,
    aws_cloudwatch_log_group.eks,
  ]

  lifecycle {
    precondition {
      condition     = !var.eks_endpoint_public_access || (length(var.eks_public_access_cidrs) > 0 && !contains(var.eks_public_access_cidrs, "0.0.0.0/0"))
      error_message = "A public EKS endpoint needs eks_public_access_cidrs, and not 0.0.0.0/0: EKS would otherwise let the whole internet reach the API server."
    }
  }
}

# IAM roles for service accounts (IRSA) need the cluster's OIDC issuer as an IAM identity provider.
resource "aws_iam_openid_connect_provider" "eks" {
  count = var.eks_enabled ? 1 : 0

  url            = aws_eks_cluster.this[0].identity[0].oidc[0].issuer
  client_id_list = ["sts.${data.aws_partition.current.dns_suffix}"]
}

################################################################################
# Access entries: the nodes join as EC2 Linux nodes; the admins get cluster-admin
################################################################################

resource "aws_eks_access_entry" "nodes" {
  count = var.eks_enabled ? 1 : 0

  cluster_name  = aws_eks_cluster.this[0].name
  principal_arn = aws_iam_role.nodes.arn
  type          = "EC2_LINUX"
}

resource "aws_eks_access_entry" "admins" {
  for_each = toset(var.eks_enabled ? var.eks_admin_arns : [])

  cluster_name  = aws_eks_cluster.this[0].name
  principal_arn = each.value
  type          = "STANDARD"
}

resource "aws_eks_access_policy_association" "admins" {
  for_each = toset(var.eks_enabled ? var.eks_admin_arns : [])

  cluster_name  = aws_eks_cluster.this[0].name
  principal_arn = aws_eks_access_entry.admins[each.key].principal_arn
  policy_arn    = "arn:${data.aws_partition.current.partition}:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy"

  access_scope {
    type = "cluster"
  }
}

################################################################################
# Security groups: the control plane and the nodes
################################################################################

# EKS puts its cluster security group on the control plane's network interfaces. The nodes keep
# gpugen's node security group; these rules open what both sides need: kubelet, webhooks and
# metrics from the control plane to the nodes (all traffic, as EKS's own rules allow between a
# cluster and its nodes), and the API server (443) from the nodes.
resource "aws_vpc_security_group_ingress_rule" "nodes_from_eks" {
  count = var.eks_enabled ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_eks_cluster.this[0].vpc_config[0].cluster_security_group_id
  ip_protocol                  = "-1"
  description                  = "All traffic from the EKS control plane (kubelet, webhooks, metrics)"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_eks" {
  count = var.eks_enabled ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_eks_cluster.this[0].vpc_config[0].cluster_security_group_id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "The Kubernetes API server on the EKS control plane"
}

resource "aws_vpc_security_group_ingress_rule" "eks_from_nodes" {
  count = var.eks_enabled ? 1 : 0

  security_group_id            = aws_eks_cluster.this[0].vpc_config[0].cluster_security_group_id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "The Kubernetes API server, from the gpugen GPU nodes"
}

# The private endpoint answers a network connected to the VPC only where the cluster security
# group lets it in on 443 (AWS, "Cluster API server endpoint": "ensure that your Amazon EKS control
# plane security group contains rules to allow ingress traffic on port 443 from your connected
# network", https://docs.aws.amazon.com/eks/latest/userguide/cluster-endpoint.html): the Ansible
# controller of plays 03-05, or its bastion (kube_api_ingress_cidrs).
resource "aws_vpc_security_group_ingress_rule" "eks_from_controller" {
  for_each = var.eks_enabled ? toset(var.kube_api_ingress_cidrs) : toset([])

  security_group_id = aws_eks_cluster.this[0].vpc_config[0].cluster_security_group_id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "The Kubernetes API server, from the Ansible controller (kube_api_ingress_cidrs)"
}

################################################################################
# Add-ons, each at the exact version gpugen's plan pins (eks_addon_versions)
################################################################################

locals {
  # CoreDNS runs where gpugen's plan puts the cluster's controllers: on the system pool's nodes
  # when there is one (a node selector, no GPU taint tolerated, so no replica lands on a GPU node
  # that turned Ready first), else tolerating the GPU pools' taints and play 05's verdict taint.
  eks_coredns_config = length(var.eks_controller_node_selector) > 0 ? jsonencode({
    nodeSelector = var.eks_controller_node_selector
    tolerations  = var.eks_controller_tolerations
  }) : length(var.eks_controller_tolerations) > 0 ? jsonencode({ tolerations = var.eks_controller_tolerations }) : null
}

locals {
  # A tfvars file that sets a map replaces it whole, so an override naming one add-on would drop
  # the others: overrides go in their own map, merged over the plan's.
  eks_addon_versions = merge(var.eks_addon_versions, var.eks_addon_version_overrides)
}

# Exact versions, not EKS's default build for the minor: that one moves, and a later apply would
# then upgrade the CNI under running nodes. The versions change only with the spec. The core
# add-ons are always there (a node without vpc-cni never turns Ready); eks-pod-identity-agent only
# where a version names it.
resource "aws_eks_addon" "this" {
  for_each = var.eks_enabled ? setunion(["coredns", "kube-proxy", "vpc-cni"], keys(local.eks_addon_versions)) : toset([])

  cluster_name                = aws_eks_cluster.this[0].name
  addon_name                  = each.key
  addon_version               = lookup(local.eks_addon_versions, each.key, null)
  resolve_conflicts_on_create = "OVERWRITE"
  resolve_conflicts_on_update = "PRESERVE"
  configuration_values        = each.key == "coredns" ? local.eks_coredns_config : null
  # Deleting the add-on (a later render without it, a destroy) leaves its DaemonSet or Deployment
  # running, as terraform-aws-modules/terraform-aws-eks v21 does by default: the nodes keep their
  # CNI and DNS.
  preserve = true

  # No dependency on the pools: a GPU pool that fails (no spot capacity) must not hold back the
  # CNI the other pools' nodes need to turn Ready. The DaemonSets are ACTIVE with no node; CoreDNS
  # turns ACTIVE once a node runs its pods, and the provider waits through CREATING and DEGRADED
  # until then (hashicorp/terraform-provider-aws internal/service/eks/addon.go, waitAddonCreated).
  timeouts {
    create = "40m"
  }

  lifecycle {
    precondition {
      condition     = contains(keys(local.eks_addon_versions), each.key)
      error_message = "No version for the EKS add-on ${each.key}: eks_addon_versions (gpugen's plan) must name coredns, kube-proxy and vpc-cni. To change one version, set eks_addon_version_overrides = { ${each.key} = \"vX.Y.Z-eksbuild.N\" } in a file of your own, not eks_addon_versions, which Terraform replaces whole."
    }
  }
}

################################################################################
# The join: user data of each pool's launch template
################################################################################

locals {
  # The pool's kubelet registration: its labels (plus gpugen-pool) and taints.
  pool_kubelet = {
    for name, p in var.pools : name => {
      labels = merge(p.node_labels, { "gpugen-pool" = name })
      taints = [for t in p.node_taints : { key = t.key, value = t.value == null ? "" : t.value, effect = t.effect }]
    }
  }

  # Nodes gpugen launches itself carry the cluster's ownership tag, as EKS asks of self-managed
  # nodes (https://docs.aws.amazon.com/eks/latest/userguide/worker.html); AWS integrations such as
  # the load balancer controller find a cluster's nodes by it.
  eks_node_tags = var.eks_enabled ? { "kubernetes.io/cluster/${local.name}" = "owned" } : {}

  # Shell single quotes around every value: a ' inside becomes '\''.
  eks_sh = !var.eks_enabled ? null : {
    cluster  = format("'%s'", replace(aws_eks_cluster.this[0].name, "'", "'\\''"))
    endpoint = format("'%s'", replace(aws_eks_cluster.this[0].endpoint, "'", "'\\''"))
    ca       = format("'%s'", replace(aws_eks_cluster.this[0].certificate_authority[0].data, "'", "'\\''"))
    dns_ip   = format("'%s'", cidrhost(local.eks_service_cidr, 10))
  }

  # kubelet's registration flags: the labels in key order, the taints in spec order.
  eks_kubelet_args = {
    for pool, k in local.pool_kubelet : pool => join(" ", compact([
      format("--node-labels=%s", join(",", [for key in sort(keys(k.labels)) : format("%s=%s", key, k.labels[key])])),
      length(k.taints) == 0 ? "" : format("--register-with-taints=%s", join(",", [for t in k.taints : format("%s=%s:%s", t.key, t.value, t.effect)])),
    ]))
  }

  # Canonical's Ubuntu EKS images ship /etc/eks/bootstrap.sh (the EKS-optimized AMI's join script,
  # https://github.com/awslabs/amazon-eks-ami ; Ubuntu EKS images: https://cloud-images.ubuntu.com/aws-eks/ ,
  # https://documentation.ubuntu.com/aws/aws-how-to/kubernetes/deploy-self-managed-node-group/).
  # The endpoint and CA are passed so that no node calls eks:DescribeCluster; the DNS address is
  # the service CIDR's .10, where EKS runs kube-dns.
  eks_join = !var.eks_enabled ? {} : {
    for pool, args in local.eks_kubelet_args : pool => join("\n", [
      "#!/bin/bash",
      format("# gpugen: join EKS cluster %s as a node of pool %s (labels and taints at registration).", aws_eks_cluster.this[0].name, pool),
      "set -euo pipefail",
      join(" ", [
        "/etc/eks/bootstrap.sh", local.eks_sh.cluster,
        "--apiserver-endpoint", local.eks_sh.endpoint,
        "--b64-cluster-ca", local.eks_sh.ca,
        "--dns-cluster-ip", local.eks_sh.dns_ip,
        "--kubelet-extra-args", format("'%s'", replace(args, "'", "'\\''")),
      ]),
      "",
    ])
  }
}

################################################################################
# Outputs
################################################################################

output "eks_cluster_name" {
  description = "Name of the EKS cluster; null without EKS."
  value       = one(aws_eks_cluster.this[*].name)
}

output "eks_endpoint" {
  description = "Endpoint of the EKS cluster's Kubernetes API server; null without EKS."
  value       = one(aws_eks_cluster.this[*].endpoint)
}

output "eks_oidc_provider_arn" {
  description = "ARN of the cluster's IAM OIDC identity provider (IAM roles for service accounts); null without EKS."
  value       = one(aws_iam_openid_connect_provider.eks[*].arn)
}

output "kubeconfig_command" {
  description = "Writes the kubeconfig plays 03-05 use (ansible/.state/kubeconfig; run from this folder, needs the AWS CLI and access to the cluster); null without EKS."
  value       = var.eks_enabled ? "aws eks update-kubeconfig --region ${var.region} --name ${aws_eks_cluster.this[0].name} --kubeconfig ../ansible/.state/kubeconfig" : null
}

################################################################################
# The addresses of the layout before eks_enabled: each resource gained count
################################################################################

moved {
  from = aws_iam_role.eks
  to   = aws_iam_role.eks[0]
}

moved {
  from = aws_iam_role_policy_attachment.eks_cluster
  to   = aws_iam_role_policy_attachment.eks_cluster[0]
}

moved {
  from = aws_cloudwatch_log_group.eks
  to   = aws_cloudwatch_log_group.eks[0]
}

moved {
  from = aws_eks_cluster.this
  to   = aws_eks_cluster.this[0]
}

moved {
  from = aws_iam_openid_connect_provider.eks
  to   = aws_iam_openid_connect_provider.eks[0]
}

moved {
  from = aws_eks_access_entry.nodes
  to   = aws_eks_access_entry.nodes[0]
}

moved {
  from = aws_vpc_security_group_ingress_rule.nodes_from_eks
  to   = aws_vpc_security_group_ingress_rule.nodes_from_eks[0]
}

moved {
  from = aws_vpc_security_group_egress_rule.nodes_to_eks
  to   = aws_vpc_security_group_egress_rule.nodes_to_eks[0]
}

moved {
  from = aws_vpc_security_group_ingress_rule.eks_from_nodes
  to   = aws_vpc_security_group_ingress_rule.eks_from_nodes[0]
}
