
locals {
  create_vpc = var.vpc_id == null
  vpc_id     = local.create_vpc ? one(aws_vpc.this[*].id) : var.vpc_id
  subnet_id  = local.create_vpc ? one(aws_subnet.nodes[*].id) : var.subnet_id

  # The NAT path, only when asked for and only in a VPC gpugen creates. Its public subnet is the
  # last /28 of the VPC unless public_subnet_cidr says otherwise.
  create_nat = local.create_vpc && var.enable_nat_gateway
  public_subnet_cidr = !local.create_nat ? null : coalesce(
    var.public_subnet_cidr,
    cidrsubnet(var.vpc_cidr, 28 - tonumber(split("/", var.vpc_cidr)[1]), pow(2, 28 - tonumber(split("/", var.vpc_cidr)[1])) - 1),
  )

  # The subnet lies inside the VPC when it is no larger and the VPC's prefix of its address is
  # the VPC's own network.
  subnet_in_vpc = !local.create_vpc ? true : try(
    tonumber(split("/", var.subnet_cidr)[1]) >= tonumber(split("/", var.vpc_cidr)[1])
    && cidrsubnet("${cidrhost(var.subnet_cidr, 0)}/${split("/", var.vpc_cidr)[1]}", 0, 0) == var.vpc_cidr,
    false,
  )

  # Address ranges as [first, last] numbers, to tell whether two subnets overlap.
  subnet_ranges = {
    for name, cidr in { nodes = var.subnet_cidr, public = local.public_subnet_cidr } : name => [
      sum([for i, octet in split(".", cidrhost(cidr, 0)) : tonumber(octet) * pow(256, 3 - i)]),
      sum([for i, octet in split(".", cidrhost(cidr, 0)) : tonumber(octet) * pow(256, 3 - i)]) + pow(2, 32 - tonumber(split("/", cidr)[1])) - 1,
    ] if cidr != null
  }
}

################################################################################
# VPC (when vpc_id is not set)
################################################################################

resource "aws_vpc" "this" {
  count = local.create_vpc ? 1 : 0

  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = {
    Name = local.name
  }

  lifecycle {
    precondition {
      condition     = var.vpc_cidr != null && var.subnet_cidr != null && var.subnet_id == null
      error_message = "Set vpc_cidr and subnet_cidr to create a VPC, or vpc_id and subnet_id to use an existing one."
    }
  }
}

# The default security group of the new VPC, managed so that it allows nothing.
resource "aws_default_security_group" "this" {
  count = local.create_vpc ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = "${local.name}-default"
  }
}

resource "aws_subnet" "nodes" {
  count = local.create_vpc ? 1 : 0

  vpc_id                  = aws_vpc.this[0].id
  cidr_block              = var.subnet_cidr
  availability_zone       = var.availability_zone
  map_public_ip_on_launch = false

  tags = {
    Name = "${local.name}-nodes"
  }

  lifecycle {
    precondition {
      condition     = local.subnet_in_vpc
      error_message = "The subnet_cidr ${var.subnet_cidr} is not inside vpc_cidr ${var.vpc_cidr}."
    }
  }
}

resource "aws_route_table" "nodes" {
  count = local.create_vpc ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = "${local.name}-nodes"
  }
}

resource "aws_route_table_association" "nodes" {
  count = local.create_vpc ? 1 : 0

  subnet_id      = aws_subnet.nodes[0].id
  route_table_id = aws_route_table.nodes[0].id
}

# S3 without the internet: checkpoints and package caches in S3 stay on the AWS network. A
# gateway endpoint costs nothing.
resource "aws_vpc_endpoint" "s3" {
  count = local.create_vpc ? 1 : 0

  vpc_id            = aws_vpc.this[0].id
  service_name      = "${data.aws_partition.current.reverse_dns_prefix}.${var.region}.s3"
  vpc_endpoint_type = "Gateway"
  route_table_ids   = [aws_route_table.nodes[0].id]

  tags = {
    Name = "${local.name}-s3"
  }
}

################################################################################
# NAT path (enable_nat_gateway)
################################################################################

resource "aws_internet_gateway" "this" {
  count = local.create_nat ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = local.name
  }
}

resource "aws_subnet" "public" {
  count = local.create_nat ? 1 : 0

  vpc_id                  = aws_vpc.this[0].id
  cidr_block              = local.public_subnet_cidr
  availability_zone       = var.availability_zone
  map_public_ip_on_launch = false

  tags = {
    Name = "${local.name}-public"
  }

  lifecycle {
    precondition {
      condition     = local.subnet_ranges.public[1] < local.subnet_ranges.nodes[0] || local.subnet_ranges.nodes[1] < local.subnet_ranges.public[0]
      error_message = "The public subnet ${local.public_subnet_cidr} overlaps subnet_cidr ${var.subnet_cidr}: set public_subnet_cidr to a free /28 of the VPC."
    }
  }
}

resource "aws_route_table" "public" {
  count = local.create_nat ? 1 : 0

  vpc_id = aws_vpc.this[0].id

  tags = {
    Name = "${local.name}-public"
  }
}

resource "aws_route" "public_internet" {
  count = local.create_nat ? 1 : 0

  route_table_id         = aws_route_table.public[0].id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.this[0].id
}

resource "aws_route_table_association" "public" {
  count = local.create_nat ? 1 : 0

  subnet_id      = aws_subnet.public[0].id
  route_table_id = aws_route_table.public[0].id
}

resource "aws_eip" "nat" {
  count = local.create_nat ? 1 : 0

  domain = "vpc"

  tags = {
    Name = "${local.name}-nat"
  }

  depends_on = [aws_internet_gateway.this]
}

resource "aws_nat_gateway" "this" {
  count = local.create_nat ? 1 : 0

  allocation_id = aws_eip.nat[0].id
  subnet_id     = aws_subnet.public[0].id

  tags = {
    Name = local.name
  }

  depends_on = [aws_internet_gateway.this]
}

resource "aws_route" "nodes_internet" {
  count = local.create_nat ? 1 : 0

  route_table_id         = aws_route_table.nodes[0].id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.this[0].id
}

################################################################################
# Interface endpoints (vpc_interface_endpoints: internet none)
################################################################################

# Without a NAT gateway the nodes reach AWS APIs only through interface endpoints with private
# DNS: Session Manager needs ssm, ssmmessages and ec2messages
# (https://docs.aws.amazon.com/systems-manager/latest/userguide/setup-create-vpc.html); S3 comes
# through the gateway endpoint above.
resource "aws_security_group" "endpoints" {
  count = length(var.vpc_interface_endpoints) > 0 ? 1 : 0

  name        = "${local.name}-endpoints"
  description = "gpugen VPC interface endpoints: HTTPS from the nodes"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${local.name}-endpoints"
  }
}

resource "aws_vpc_security_group_ingress_rule" "endpoints_from_nodes" {
  count = length(var.vpc_interface_endpoints) > 0 ? 1 : 0

  security_group_id            = aws_security_group.endpoints[0].id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "HTTPS from the nodes"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_endpoints" {
  count = length(var.vpc_interface_endpoints) > 0 && !var.allow_web_egress ? 1 : 0

  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.endpoints[0].id
  ip_protocol                  = "tcp"
  from_port                    = 443
  to_port                      = 443
  description                  = "HTTPS to the VPC interface endpoints"
}

resource "aws_vpc_endpoint" "interface" {
  for_each = toset(var.vpc_interface_endpoints)

  vpc_id              = local.vpc_id
  service_name        = "${data.aws_partition.current.reverse_dns_prefix}.${var.region}.${each.key}"
  vpc_endpoint_type   = "Interface"
  subnet_ids          = [local.subnet_id]
  security_group_ids  = [aws_security_group.endpoints[0].id]
  private_dns_enabled = true

  tags = {
    Name = "${local.name}-${each.key}"
  }
}

################################################################################
# Existing VPC and subnet (vpc_id, subnet_id)
################################################################################

data "aws_subnet" "existing" {
  count = local.create_vpc ? 0 : 1

  id = var.subnet_id

  lifecycle {
    postcondition {
      condition     = self.vpc_id == var.vpc_id
      error_message = "The subnet ${var.subnet_id} is in ${self.vpc_id}, not in vpc_id ${var.vpc_id}."
    }
  }
}

check "nat_gateway" {
  assert {
    condition     = local.create_vpc || !var.enable_nat_gateway
    error_message = "enable_nat_gateway applies only to a VPC that gpugen creates; the existing VPC ${coalesce(var.vpc_id, "-")} keeps its own routes."
  }
}

################################################################################
# Node security group
################################################################################

resource "aws_security_group" "nodes" {
  name        = "${local.name}-nodes"
  description = "gpugen GPU nodes: all traffic among themselves (EFA, NCCL), SSH from the allowed CIDRs"
  vpc_id      = local.vpc_id

  tags = {
    Name = "${local.name}-nodes"
  }
}

# EFA requires a security group that allows all traffic to and from itself, in both directions.
resource "aws_vpc_security_group_ingress_rule" "nodes_from_nodes" {
  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "-1"
  description                  = "All traffic from the other nodes (EFA, NCCL)"
}

resource "aws_vpc_security_group_egress_rule" "nodes_to_nodes" {
  security_group_id            = aws_security_group.nodes.id
  referenced_security_group_id = aws_security_group.nodes.id
  ip_protocol                  = "-1"
  description                  = "All traffic to the other nodes (EFA, NCCL)"
}

resource "aws_vpc_security_group_ingress_rule" "nodes_ssh" {
  for_each = toset(var.ssh_ingress_cidrs)

  security_group_id = aws_security_group.nodes.id
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 22
  to_port           = 22
  description       = "SSH from an allowed CIDR (network.sshIngressCidrs)"
}

# Package repositories (Ubuntu mirrors serve apt over HTTP), NGC and SSM have no fixed address
# ranges, so web egress goes to any address; allow_web_egress = false turns it off.
#trivy:ignore:AVD-AWS-0104
resource "aws_vpc_security_group_egress_rule" "nodes_https" {
  count = var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.nodes.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "HTTPS to package repositories, NGC, SSM and S3"
}

#trivy:ignore:AVD-AWS-0104
resource "aws_vpc_security_group_egress_rule" "nodes_http" {
  count = var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.nodes.id
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  description       = "HTTP to Ubuntu package mirrors"
}

resource "aws_vpc_security_group_egress_rule" "nodes_s3" {
  count = local.create_vpc && !var.allow_web_egress ? 1 : 0

  security_group_id = aws_security_group.nodes.id
  prefix_list_id    = aws_vpc_endpoint.s3[0].prefix_list_id
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  description       = "HTTPS to S3 through the VPC gateway endpoint"
}
