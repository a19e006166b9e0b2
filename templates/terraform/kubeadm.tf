#
# kubernetes.distribution kubeadm on AWS (control_plane_count 1 or 3; 0, the default, for any
# other distribution): the control-plane instances gpugen creates for play 02b (kubeadm init on
# the first, kubeadm join --control-plane on the others), in the nodes' VPC and subnet, from the
# nodes' image, in a security group of their own that opens what kubeadm's control plane needs
# (not the GPU nodes' all-traffic group). With more than one, an internal Network Load Balancer
# on the API server port is the control-plane endpoint
# (https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/).
# docs/terraform.md, "Network flows", lists every flow with its source.

locals {
  # kube-apiserver's secure port, kubeadm's default
  # (https://kubernetes.io/docs/reference/networking/ports-and-protocols/).
  kube_api_port = 6443

  # One control-plane instance: its own address is the endpoint (play 02b reads it from the
  # inventory). More: the load balancer's DNS name, which each instance carries as a tag for
  # gpugen-inventory (gpugen_kube_endpoint).
  kube_api_lb = var.control_plane_count > 1

  # kubelet's API, which the API servers call (logs, exec, port-forward), and etcd's client and
  # peer ports between the stacked members (the same page).
  kubelet_port = 10250
  etcd_ports   = { from = 2379, to = 2380 }

  # Among the control-plane instances (more than one): etcd, the API server (pods on one reach the
  # kubernetes Service, whose endpoints are every instance), kubelet, and the pod network.
  control_plane_peer_ports = !local.kube_api_lb ? {} : merge(
    {
      etcd    = { ip_protocol = "tcp", from_port = local.etcd_ports.from, to_port = local.etcd_ports.to }
      api     = { ip_protocol = "tcp", from_port = local.kube_api_port, to_port = local.kube_api_port }
      kubelet = { ip_protocol = "tcp", from_port = local.kubelet_port, to_port = local.kubelet_port }
    },
    { for name, p in var.pod_network_ports : "pod-network-${name}" => p },
  )

  # Between the control plane and the GPU nodes, both ways: the pod network's tunnel, routing and
  # health checks (pod_network_ports: the plan's list for kubernetes.cni).
  pod_network_ports = var.control_plane_count > 0 ? var.pod_network_ports : {}
}

# Spread: each control-plane instance on distinct hardware, so one host failure takes one etcd
# member (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/placement-strategies.html#placement-groups-spread).
resource "aws_placement_group" "control_plane" {
  count = var.control_plane_count > 0 ? 1 : 0

  name     = "${local.name}-control-plane"
  strategy = "spread"
}

resource "aws_instance" "control_plane" {
  count = var.control_plane_count

  ami                    = local.ami_id
  instance_type          = var.control_plane_instance_type
  key_name               = var.ssh_key_name
  iam_instance_profile   = aws_iam_instance_profile.nodes.name
  placement_group        = aws_placement_group.control_plane[0].name
  subnet_id              = local.subnet_id
  vpc_security_group_ids = [aws_security_group.control_plane[0].id]
  ebs_optimized          = true
  monitoring             = true

  # No public address: the API server is reached inside the VPC, through the load balancer.
  associate_public_ip_address = false

  # IMDSv2 only, one hop: no pod reaches the instance role through the metadata service
  # (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-IMDS-existing-instances.html).
  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  # etcd's data lives here: gp3 SSD, encrypted (with kms_key_id when set, else the EBS key).
  root_block_device {
    volume_type           = "gp3"
    volume_size           = var.control_plane_root_volume_size_gib
    encrypted             = true
    kms_key_id            = var.kms_key_id
    delete_on_termination = true
  }

  tags = merge(local.tags, local.ssm_bucket_tag, {
    Name          = "${local.name}-cp-${count.index}"
    "gpugen:role" = "control-plane"
  }, local.kube_api_lb ? { "gpugen:kube-endpoint" = "${aws_lb.kube_api[0].dns_name}:${local.kube_api_port}" } : {})

  lifecycle {
    # A newer Ubuntu AMI must not replace an etcd member; replace one on purpose:
    # terraform apply -replace='aws_instance.control_plane[INDEX]'.
    ignore_changes = [ami]

    precondition {
      condition     = var.control_plane_instance_type != null
      error_message = "A kubeadm control plane (control_plane_count ${var.control_plane_count}) needs control_plane_instance_type."
    }
  }

  # An instance moved into its own group (from the nodes' group of an earlier render) finds its
  # peers' and the nodes' rules in place: etcd keeps its quorum through the change.
  depends_on = [
    aws_vpc_security_group_ingress_rule.control_plane_from_control_plane,
    aws_vpc_security_group_egress_rule.control_plane_to_control_plane,
    aws_vpc_security_group_ingress_rule.control_plane_api_from_nodes,
    aws_vpc_security_group_ingress_rule.control_plane_api_from_kube_api_lb,
    aws_vpc_security_group_egress_rule.control_plane_to_kube_api_lb,
  ]
}

################################################################################
# The control plane's security group
################################################################################

# Only what kubeadm's control plane needs
# (https://kubernetes.io/docs/reference/networking/ports-and-protocols/): the API server from the
# nodes, the load balancer and the controller; etcd, the API server and kubelet among the
# instances; kubelet on the nodes; the pod network both ways. Web egress as the nodes have it
# (packages, images, SSM).
resource "aws_security_group" "control_plane" {
  count = var.control_plane_count > 0 ? 1 : 0

  name        = "${local.name}-control-plane"
  description = "gpugen kubeadm control plane: the API server, etcd among its members, kubelet and the pod network"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${local.name}-control-plane"
  }
}

resource "aws_vpc_security_group_ingress_rule" "control_plane_from_control_plane" {
  for_each = local.control_plane_peer_ports

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "${each.key} from the other control-plane instances"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_to_control_plane" {
  for_each = local.control_plane_peer_ports

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "${each.key} to the other control-plane instances"
}

# The nodes' kubelets and pods reach the API server directly too: the kubernetes Service's
# endpoints are the instances' own addresses.
resource "aws_vpc_security_group_ingress_rule" "control_plane_api_from_nodes" {
  count = var.control_plane_count > 0 ? 1 : 0

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server, from the GPU nodes"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_control_plane_api" {
  count = var.control_plane_count > 0 ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server on the control plane"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_to_nodes_kubelet" {
  count = var.control_plane_count > 0 ? 1 : 0

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = local.kubelet_port
  to_port                      = local.kubelet_port
  description                  = "kubelet on the GPU nodes (logs, exec, port-forward)"
}

resource "aws_vpc_security_group_ingress_rule" "nodes_kubelet_from_control_plane" {
  count = var.control_plane_count > 0 ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kubelet_port
  to_port                      = local.kubelet_port
  description                  = "kubelet, from the API servers on the control plane"
}

resource "aws_vpc_security_group_ingress_rule" "control_plane_from_nodes_pod_network" {
  for_each = local.pod_network_ports

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "The pod network (${each.key}) from the GPU nodes"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_to_nodes_pod_network" {
  for_each = local.pod_network_ports

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "The pod network (${each.key}) to the GPU nodes"
}

resource "aws_vpc_security_group_ingress_rule" "nodes_from_control_plane_pod_network" {
  for_each = local.pod_network_ports

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "The pod network (${each.key}) from the control plane"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_control_plane_pod_network" {
  for_each = local.pod_network_ports

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = each.value.ip_protocol
  from_port                    = each.value.from_port
  to_port                      = each.value.to_port
  description                  = "The pod network (${each.key}) to the control plane"
}

resource "aws_vpc_security_group_ingress_rule" "control_plane_ssh" {
  for_each = var.control_plane_count > 0 ? toset(var.ssh_ingress_cidrs) : toset([])

  security_group_id = aws_security_group.control_plane[0].id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  description       = "SSH from an allowed CIDR (network.sshIngressCidrs)"
}

# Package repositories (pkgs.k8s.io, Ubuntu's mirrors over HTTP), container images and SSM have no
# fixed address ranges, as for the nodes; allow_web_egress = false turns it off.
#trivy:ignore:AVD-AWS-0104
resource "aws_vpc_security_group_egress_rule" "control_plane_https" {
  count = var.control_plane_count > 0 && var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.control_plane[0].id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "HTTPS to package repositories, container registries, SSM and S3"
}

#trivy:ignore:AVD-AWS-0104
resource "aws_vpc_security_group_egress_rule" "control_plane_http" {
  count = var.control_plane_count > 0 && var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.control_plane[0].id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  description       = "HTTP to Ubuntu package mirrors"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_s3" {
  count = var.control_plane_count > 0 && local.create_vpc && !var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.control_plane[0].id
  prefix_list_id    = aws_vpc_endpoint.s3[0].prefix_list_id
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "HTTPS to S3 through the VPC gateway endpoint"
}

resource "aws_vpc_security_group_ingress_rule" "endpoints_from_control_plane" {
  count = var.control_plane_count > 0 && length(var.vpc_interface_endpoints) > 0 ? 1 : 0

  security_group_id            = aws_security_group.endpoints[0].id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "HTTPS from the control plane"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_to_endpoints" {
  count = var.control_plane_count > 0 && length(var.vpc_interface_endpoints) > 0 && !var.allow_web_egress ? 1 : 0

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.endpoints[0].id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "HTTPS to the VPC interface endpoints"
}

################################################################################
# Internal Network Load Balancer: the control-plane endpoint (control_plane_count > 1)
################################################################################

# Its own security group: the GPU nodes and the control plane reach the API servers through it,
# and it reaches them (traffic and health checks) on 6443 only
# (https://docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-security-groups.html).
resource "aws_security_group" "kube_api_lb" {
  count = local.kube_api_lb ? 1 : 0

  name        = "${local.name}-kube-api-lb"
  description = "gpugen kubeadm API server load balancer: 6443 from the nodes to the control plane"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${local.name}-kube-api-lb"
  }
}

resource "aws_vpc_security_group_ingress_rule" "kube_api_lb_from_nodes" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.kube_api_lb[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server, from the nodes"
}

# The nodes' kubelets and kubeadm join reach the API through its endpoint, the load balancer.
resource "aws_vpc_security_group_egress_rule" "nodes_to_kube_api_lb" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.kube_api_lb[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server through its load balancer"
}

# kubeadm init calls its own endpoint, and the control plane's kubelets and joins use it too.
resource "aws_vpc_security_group_ingress_rule" "kube_api_lb_from_control_plane" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.kube_api_lb[0].id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server, from the control plane"
}

resource "aws_vpc_security_group_egress_rule" "control_plane_to_kube_api_lb" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.kube_api_lb[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The Kubernetes API server through its load balancer"
}

resource "aws_vpc_security_group_ingress_rule" "kube_api_lb_from_controller" {
  for_each = local.kube_api_lb ? toset(var.kube_api_ingress_cidrs) : toset([])

  security_group_id = aws_security_group.kube_api_lb[0].id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = local.kube_api_port
  to_port           = local.kube_api_port
  description       = "The Kubernetes API server, from the Ansible controller"
}

resource "aws_vpc_security_group_egress_rule" "kube_api_lb_to_control_plane" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.kube_api_lb[0].id
  referenced_security_group_id = aws_security_group.control_plane[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The API servers on the control-plane instances"
}

resource "aws_vpc_security_group_ingress_rule" "control_plane_api_from_kube_api_lb" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.control_plane[0].id
  referenced_security_group_id = aws_security_group.kube_api_lb[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The API server, from its load balancer (traffic and health checks)"
}

# One control-plane instance: the controller reaches its API server directly.
resource "aws_vpc_security_group_ingress_rule" "control_plane_api_from_controller" {
  for_each = var.control_plane_count == 1 ? toset(var.kube_api_ingress_cidrs) : toset([])

  security_group_id = aws_security_group.control_plane[0].id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = local.kube_api_port
  to_port           = local.kube_api_port
  description       = "The Kubernetes API server, from the Ansible controller"
}

resource "aws_lb" "kube_api" {
  count = local.kube_api_lb ? 1 : 0

  name_prefix        = "kapi-"
  internal           = true
  load_balancer_type = "network"
  subnets            = [local.subnet_id]
  security_groups    = [aws_security_group.kube_api_lb[0].id]

  tags = {
    Name = "${local.name}-kube-api"
  }
}

# Client IP preservation off: a control-plane instance reaching the endpoint may be sent to
# itself, which fails with the client's address preserved ("NAT loopback ... is not supported
# when client IP preservation is enabled",
# https://docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-troubleshooting.html).
# Health: HTTPS /readyz, which kube-apiserver serves to anonymous clients
# (https://kubernetes.io/docs/reference/using-api/health-checks/).
resource "aws_lb_target_group" "kube_api" {
  count = local.kube_api_lb ? 1 : 0

  name_prefix        = "kapi-"
  port               = local.kube_api_port
  protocol           = "TCP"
  target_type        = "instance"
  vpc_id             = local.vpc_id
  preserve_client_ip = "false"

  health_check {
    protocol            = "HTTPS"
    port                = "traffic-port"
    path                = "/readyz"
    matcher             = "200"
    interval            = 10
    healthy_threshold   = 2
    unhealthy_threshold = 2
  }
}

resource "aws_lb_listener" "kube_api" {
  count = local.kube_api_lb ? 1 : 0

  load_balancer_arn = aws_lb.kube_api[0].arn
  port              = local.kube_api_port
  protocol          = "TCP"

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.kube_api[0].arn
  }
}

resource "aws_lb_target_group_attachment" "kube_api" {
  count = local.kube_api_lb ? var.control_plane_count : 0

  target_group_arn = aws_lb_target_group.kube_api[0].arn
  target_id        = aws_instance.control_plane[count.index].id
  port             = local.kube_api_port
}

output "control_plane_instance_ids" {
  description = "Instance ids of the kubeadm control plane, by index."
  value       = aws_instance.control_plane[*].id
}

output "control_plane_private_ips" {
  description = "Private IPv4 addresses of the kubeadm control plane, by index."
  value       = aws_instance.control_plane[*].private_ip
}

output "kube_api_endpoint" {
  description = "The kubeadm control-plane endpoint (HOST:PORT) the nodes and the kubeconfig use; null without kubeadm."
  value       = var.control_plane_count == 0 ? null : local.kube_api_lb ? "${aws_lb.kube_api[0].dns_name}:${local.kube_api_port}" : "${aws_instance.control_plane[0].private_ip}:${local.kube_api_port}"
}

# The address of the layout before control_plane_count 0 meant no control plane.
moved {
  from = aws_placement_group.control_plane
  to   = aws_placement_group.control_plane[0]
}

# kubelet pulls the EFA device plugin's image from Amazon ECR (account 602401143452's registry,
# aws/eks-charts stable/aws-efa-k8s-device-plugin values.yaml) with the node role, through the
# ecr-credential-provider play 02b installs (EKS nodes get the same with
# AmazonEC2ContainerRegistryReadOnly). Pull actions only, on that account's repositories; the
# authorization token has no resource to scope
# (https://docs.aws.amazon.com/AmazonECR/latest/userguide/security_iam_id-based-policy-examples.html).
data "aws_iam_policy_document" "nodes_ecr_pull" {
  count = var.control_plane_count > 0 ? 1 : 0

  statement {
    sid       = "EcrToken"
    actions   = ["ecr:GetAuthorizationToken"]
    resources = ["*"]
  }

  statement {
    sid       = "EksImagePull"
    actions   = ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]
    resources = ["arn:${data.aws_partition.current.partition}:ecr:*:602401143452:repository/*"]
  }
}

resource "aws_iam_role_policy" "nodes_ecr_pull" {
  count = var.control_plane_count > 0 ? 1 : 0

  name   = "ecr-pull"
  role   = aws_iam_role.nodes.id
  policy = data.aws_iam_policy_document.nodes_ecr_pull[0].json
}
