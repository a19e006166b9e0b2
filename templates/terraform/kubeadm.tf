#
# kubernetes.distribution kubeadm on AWS (control_plane_count 1 or 3; 0, the default, for any
# other distribution): the control-plane instances gpugen creates for play 02b (kubeadm init on
# the first, kubeadm join --control-plane on the others), in the nodes' VPC, subnet and security
# group, from the nodes' image. With more than one, an internal Network Load Balancer on the API
# server port is the control-plane endpoint
# (https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/).

locals {
  # kube-apiserver's secure port, kubeadm's default
  # (https://kubernetes.io/docs/reference/networking/ports-and-protocols/).
  kube_api_port = 6443

  # One control-plane instance: its own address is the endpoint (play 02b reads it from the
  # inventory). More: the load balancer's DNS name, which each instance carries as a tag for
  # gpugen-inventory (gpugen_kube_endpoint).
  kube_api_lb = var.control_plane_count > 1
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
  vpc_security_group_ids = [aws_security_group.nodes.id]
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
}

################################################################################
# Internal Network Load Balancer: the control-plane endpoint (control_plane_count > 1)
################################################################################

# Its own security group: the nodes (GPU nodes and control plane) reach the API server through
# it, and it reaches the API servers (traffic and health checks) on 6443 only
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
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The API servers on the control-plane instances"
}

resource "aws_vpc_security_group_ingress_rule" "nodes_from_kube_api_lb" {
  count = local.kube_api_lb ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.kube_api_lb[0].id
  ip_protocol                  = "tcp"
  from_port                    = local.kube_api_port
  to_port                      = local.kube_api_port
  description                  = "The API server, from its load balancer (traffic and health checks)"
}

# One control-plane instance: the controller reaches its API server directly.
resource "aws_vpc_security_group_ingress_rule" "nodes_kube_api_from_controller" {
  for_each = var.control_plane_count == 1 ? toset(var.kube_api_ingress_cidrs) : toset([])

  security_group_id = aws_security_group.nodes.id
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
