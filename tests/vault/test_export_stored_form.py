"""The export files' forms, byte for byte: the knowledge graph as ``reverie export --format graph``
writes it (nodes as ``id, type, label, properties``, edges as ``source, target, relation``) and a RAG
chunk; both from fixed instances against the exact text an earlier version wrote."""

from __future__ import annotations

import json

from core.export import ExportGraph, GraphEdge, GraphNode, RagChunk

GRAPH = ExportGraph(
    nodes=[
        GraphNode("m-1", "memory", "스키 여행", {"review": {"reviewed": True, "confidence": 0.875},
                                                 "verified": True, "tags": ["ski", "trip"]}),
        GraphNode("tag:ski", "tag", "ski"),
    ],
    edges=[GraphEdge("m-1", "tag:ski", "tagged")],
)
GRAPH_JSON = """{
  "nodes": [
    {
      "id": "m-1",
      "type": "memory",
      "label": "스키 여행",
      "properties": {
        "review": {
          "reviewed": true,
          "confidence": 0.875
        },
        "verified": true,
        "tags": [
          "ski",
          "trip"
        ]
      }
    },
    {
      "id": "tag:ski",
      "type": "tag",
      "label": "ski",
      "properties": {}
    }
  ],
  "edges": [
    {
      "source": "m-1",
      "target": "tag:ski",
      "relation": "tagged"
    }
  ]
}"""


def test_the_knowledge_graph_file_is_unchanged() -> None:
    assert json.dumps(GRAPH.to_dict(), ensure_ascii=False, indent=2) == GRAPH_JSON


def test_a_rag_chunk_keeps_its_keys_in_order() -> None:
    chunk = RagChunk("m-1#0", "Kate skis", {"memory_id": "m-1", "verified": False, "tags": ("ski",)})
    assert json.dumps(chunk.to_dict(), ensure_ascii=False) == (
        '{"chunk_id": "m-1#0", "text": "Kate skis", "metadata": {"memory_id": "m-1", "verified": false, '
        '"tags": ["ski"]}}')
