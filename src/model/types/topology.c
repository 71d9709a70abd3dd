/*
 * topology.c - measured bus bandwidth by topology class and fabric
 * (topology.h).  Entry ids are those of the project's
 * reference data reference/collectives.yaml.
 */
#include "topology.h"

#include <math.h>
#include <string.h>

const char *const topo_names[] = { "default", "nvswitch", "mesh", "nvlink-pairs",
				   "pcie", "pcie-no-p2p", NULL };

/*
 * PCIe rings, as shares of one x16 direction (the GPU file's pcie figure
 * halved).  With peer-to-peer: 24 GB/s at Gen4 and 48 at Gen5 for 8 GPUs
 * (gtc24-s62129-slide12: 24 / 31.5 = 48 / 63 = 0.76, derived-pcie-
 * efficiency), 20 GB/s once a ring of A100 PCIe leaves one socket
 * (gh-nccltests178-a100pcie-bridged: 20 / 31.5 = 0.63).  Without
 * peer-to-peer NCCL goes through host memory: 8 RTX 5090 at Gen5 reach 28
 * GB/s and 4 of them 35 (gh-nccl1639-8x5090: 0.44 and 0.55 of 63).
 * A ring of more than PCIE_SOCKET_GPUS cards is taken to span the two CPU
 * sockets of an 8-card server, as in both measurements.
 */
#define PCIE_P2P_SOCKET_FRAC 0.76
#define PCIE_P2P_CROSS_FRAC 0.63
#define PCIE_SHM_SOCKET_FRAC 0.55
#define PCIE_SHM_CROSS_FRAC 0.44
#define PCIE_SOCKET_GPUS 4

/* NVLink SHARP's gain over the ring grows with the GPUs of the group: on
 * 8 H200 1.14, 1.19, 1.26, 1.29 for 5 to 8 GPUs and none for 4
 * (stas-h200-nvls-vs-ring), on B200 none up to 5 and 1.23 for 8
 * (stas-b200-p6-nvls-vs-ring).  GPU files give the gain at 8; it is taken
 * linearly from none at 4. */
#define NVLS_NONE_AT 4
#define NVLS_FULL_AT 8

/*
 * Fabrics.  busbw_frac: large-message all-reduce bus bandwidth over the
 * node's NIC line rate, where the message-size curve below levels off.
 * InfiniBand and RoCE: 0.90, the plateau of the 4 to 512 node H100 scan
 * (arxiv2411.13055-scan) fitted with net_half_bytes; single large-message
 * points sit at 0.92-0.96 (derived-nic-efficiency: 192 of 200 GB/s on 8x
 * HDR, 370-380 of 400 on 8x NDR, 190 of 200 on 4x 400G RoCE).  EFA of the
 * p4d generation 0.60 (gh-nccl527-p4dn-1to4: 29.6 of 50 GB/s on 4 nodes),
 * EFA v4 0.92 (stas-b200-1node-vs-4node: 370 of 400 GB/s fitted over its
 * 4-node curve).  floor_s: an 8-byte all-reduce over two nodes, 46 us on
 * InfiniBand (gh-nccl1244-h20-2node-nvlstree), 93 us on RoCE
 * (gh-nccl812-2node-roce-latency), 167 us on EFA (aws-efa-eks-p4d-2node).
 * Nothing was measured for EFA v4's floor or for plain TCP: EFA's figures
 * stand in, and measured says so.
 */
static const struct fabric_def fabrics[FABRIC_COUNT] = {
	[FABRIC_IB] = { 0.90, 46e-6, 1 },
	[FABRIC_ROCE] = { 0.90, 93e-6, 1 },
	[FABRIC_EFA] = { 0.60, 167e-6, 1 },
	[FABRIC_EFA_V4] = { 0.92, 167e-6, 1 },
	[FABRIC_TCP] = { 0.60, 167e-6, 0 },
};

/*
 * The message-size curve across nodes, busbw = plateau * S / (S + h(N)):
 * h(N) = 50 MB * (N / 4)^0.24, fitted with the 0.90 plateau on the eight
 * points of arxiv2411.13055-scan (4 and 512 nodes, 64 MiB to 16 GiB;
 * rms log error 0.05): a 64 MiB all-reduce reaches 57 % of the plateau on
 * 4 nodes and 30 % on 512, 16 GiB 99 % on both.
 */
#define NET_HALF_BYTES_4_NODES 50e6
#define NET_HALF_NODE_EXPONENT 0.24

const char *const comm_coll_names[] = { "all-reduce", "reduce-scatter", "all-gather",
					"all-to-all", "send-recv", NULL };

const char *const fabric_names[FABRIC_COUNT] = {
	[FABRIC_IB] = "infiniband", [FABRIC_ROCE] = "roce", [FABRIC_EFA] = "efa",
	[FABRIC_EFA_V4] = "efa-v4", [FABRIC_TCP] = "ethernet",
};

const struct fabric_def *fabric_get(enum net_fabric f)
{
	return &fabrics[(unsigned)f < FABRIC_COUNT ? f : FABRIC_IB];
}

double net_half_bytes(int nodes)
{
	double n = nodes < 2 ? 2 : nodes;
	return NET_HALF_BYTES_4_NODES * pow(n / 4, NET_HALF_NODE_EXPONENT);
}

double net_latency_s(double floor_s, int nodes)
{
	return nodes < 2 ? 0 : floor_s * log2((double)nodes);
}

/* A PCIe ring of k GPUs, with or without peer-to-peer. */
static double pcie_ring(double pcie_Bps, int k, int p2p)
{
	int one_socket = k <= PCIE_SOCKET_GPUS;
	double frac = p2p ? (one_socket ? PCIE_P2P_SOCKET_FRAC : PCIE_P2P_CROSS_FRAC) :
			    (one_socket ? PCIE_SHM_SOCKET_FRAC : PCIE_SHM_CROSS_FRAC);
	return frac * pcie_Bps / 2;
}

double topo_ring_busbw(enum node_topology t, double nvlink_Bps, double pcie_Bps,
		       double ring_frac, double nvls_gain, int k, int allreduce)
{
	double nvlink = ring_frac * nvlink_Bps / 2;
	switch (t) {
	case TOPO_NVSWITCH:
		if (allreduce && k > NVLS_NONE_AT && nvls_gain > 1) {
			int m = k < NVLS_FULL_AT ? k : NVLS_FULL_AT;
			return nvlink * (1 + (nvls_gain - 1) * (m - NVLS_NONE_AT) /
						     (NVLS_FULL_AT - NVLS_NONE_AT));
		}
		return nvlink;
	case TOPO_MESH:
		return nvlink;
	case TOPO_NVLINK_PAIRS:
		return k <= 2 ? nvlink : pcie_ring(pcie_Bps, k, 1);
	case TOPO_PCIE_NO_P2P:
		return pcie_ring(pcie_Bps, k, 0);
	case TOPO_PCIE:
	case TOPO_DEFAULT:
	case TOPO_COUNT:
		break;
	}
	return pcie_ring(pcie_Bps, k, 1);
}

/*
 * An all-to-all inside a node (gtc25-s72583-alltoall against the
 * all-reduce ring of gtc25-s72583-allreduce, both nccl-tests busbw at
 * large messages, 8 GPUs): on NVSwitch A100 210 of 232, H100 320 of 370,
 * B200 640 of 700, 0.905, 0.865 and 0.914 of the ring, 0.89 taken (every
 * GPU sends to seven peers at once; the ring streams to one).  On PCIe
 * with the 8 GPUs on two CPU sockets (2 x 4) it is 12 GB/s at Gen5 and 24
 * at Gen6, 0.19 of one x16 direction (63 and 126 GB/s) in both: most of
 * its traffic crosses the socket link, which a ring crosses twice.  No
 * measurement inside one socket or on a mesh: the ring's rate stands.
 */
#define NVSWITCH_ALLTOALL_FRAC 0.89
#define PCIE_ALLTOALL_CROSS_FRAC 0.19

double topo_alltoall_busbw(enum node_topology t, double ring_Bps, double pcie_Bps,
			   int k)
{
	int pcie = t == TOPO_PCIE || t == TOPO_PCIE_NO_P2P || t == TOPO_DEFAULT ||
		   (t == TOPO_NVLINK_PAIRS && k > 2);
	if (t == TOPO_NVSWITCH)
		return NVSWITCH_ALLTOALL_FRAC * ring_Bps;
	if (pcie && k > PCIE_SOCKET_GPUS)
		return fmin(ring_Bps, PCIE_ALLTOALL_CROSS_FRAC * pcie_Bps / 2);
	return ring_Bps;
}

enum node_topology topo_default(const char *form_factor, double nvlink_Bps)
{
	if (nvlink_Bps > 0 && !strcmp(form_factor, "oam"))
		return TOPO_MESH;
	/* A GPU built in code may leave the form factor empty: NVLink then
	 * means a switch, as on every SXM board. */
	if (nvlink_Bps > 0 && strcmp(form_factor, "pcie"))
		return TOPO_NVSWITCH;
	return TOPO_PCIE;
}

int topo_fits(enum node_topology t, const char *form_factor, double nvlink_Bps)
{
	int pcie_card = !strcmp(form_factor, "pcie");
	switch (t) {
	case TOPO_NVSWITCH:
		return nvlink_Bps > 0 && !pcie_card && strcmp(form_factor, "oam");
	case TOPO_MESH:
		return nvlink_Bps > 0 && !strcmp(form_factor, "oam");
	case TOPO_NVLINK_PAIRS:
		return nvlink_Bps > 0 && pcie_card;
	case TOPO_PCIE:
	case TOPO_PCIE_NO_P2P:
		return pcie_card;
	case TOPO_DEFAULT:
		return 1;
	case TOPO_COUNT:
		break;
	}
	return 0;
}
