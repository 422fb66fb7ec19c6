// Generated from docs/openapi.json by scripts/check-api-types.mjs --write. Do not edit.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status, enabled modalities, problems */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Status, enabled modalities, problems (headers only) */
        head: operations["headHealth"];
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metrics in the Prometheus text format (operator, once API keys exist) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Metrics in the Prometheus text format (operator, once API keys exist) (headers only) */
        head: operations["headMetrics"];
        patch?: never;
        trace?: never;
    };
    "/v1/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this server runs: retrievers, their backends, the embedding model, fusion, reranker, answers; no secrets */
        get: operations["getConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** What this server runs: retrievers, their backends, the embedding model, fusion, reranker, answers; no secrets (headers only) */
        head: operations["headConfiguration"];
        patch?: never;
        trace?: never;
    };
    "/v1/sample-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End-to-end self-test: index a small text into a throw-away knowledge base, find it, delete it, check it is gone; each step timed */
        post: operations["postSampleCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 200 when every store and model answers; 503 naming what does not */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** 200 when every store and model answers; 503 naming what does not (headers only) */
        head: operations["headReady"];
        patch?: never;
        trace?: never;
    };
    "/v1/admin/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Compare every store with the catalog (operator) */
        get: operations["getAdminCheck"];
        put?: never;
        /** Compare, and with repair=true mend (operator) */
        post: operations["postAdminCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Back-fill, as a background job, what a store lacks (switched on, or a new embedding model, after documents were indexed); its leg is searched again once whole (operator) */
        post: operations["postAdminReindex"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Any job, whoever's (operator) */
        get: operations["getAdminJobsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Any job, whoever's (operator) (headers only) */
        head: operations["headAdminJobsId"];
        patch?: never;
        trace?: never;
    };
    "/v1/admin/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel any job, whoever's: a queued one at once, a running one at its next step; what it indexed stays (operator) */
        post: operations["postAdminJobsIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys, never the keys themselves (operator) */
        get: operations["getAdminKeys"];
        put?: never;
        /** Create an API key for a tenant; it is shown once (operator) */
        post: operations["postAdminKeys"];
        delete?: never;
        options?: never;
        /** List API keys, never the keys themselves (operator) (headers only) */
        head: operations["headAdminKeys"];
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key (operator) */
        delete: operations["deleteAdminKeysId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your knowledge bases with their counts */
        get: operations["getKnowledgeBases"];
        put?: never;
        /** Create an empty knowledge base */
        post: operations["postKnowledgeBases"];
        delete?: never;
        options?: never;
        /** Your knowledge bases with their counts (headers only) */
        head: operations["headKnowledgeBases"];
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A knowledge base with its document and chunk counts */
        get: operations["getKnowledgeBasesName"];
        put?: never;
        post?: never;
        /** Delete a knowledge base and every document in it; ingest jobs writing into it are canceled first */
        delete: operations["deleteKnowledgeBasesName"];
        options?: never;
        /** A knowledge base with its document and chunk counts (headers only) */
        head: operations["headKnowledgeBasesName"];
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{name}/judgments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The knowledge base's judged queries */
        get: operations["getKnowledgeBasesNameJudgments"];
        put?: never;
        /** Add judged queries (a query and its relevant documents, graded): JSON, or multipart/form-data with BEIR files 'qrels' (query-id, corpus-id, score) and 'queries' (JSON lines); a query id judged before is replaced, as is one question judged under another id */
        post: operations["postKnowledgeBasesNameJudgments"];
        /** Delete the knowledge base's judged queries, or one (query_id) */
        delete: operations["deleteKnowledgeBasesNameJudgments"];
        options?: never;
        /** The knowledge base's judged queries (headers only) */
        head: operations["headKnowledgeBasesNameJudgments"];
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{name}/tune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fit the knowledge base's fusion to its judged queries (at least 20), as a job: it is applied to the knowledge base's searches only when it beats the configured fusion on held-out folds */
        post: operations["postKnowledgeBasesNameTune"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{name}/tuning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the last tuning found, and whether its searches use it */
        get: operations["getKnowledgeBasesNameTuning"];
        put?: never;
        post?: never;
        /** Drop the tuning: the knowledge base's searches use the configured fusion again */
        delete: operations["deleteKnowledgeBasesNameTuning"];
        options?: never;
        /** What the last tuning found, and whether its searches use it (headers only) */
        head: operations["headKnowledgeBasesNameTuning"];
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{name}/evaluation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Measure the knowledge base's search on its judged queries: the configured fusion, the tuned one and each leg alone (nDCG@10, Recall@100, MRR@10, 95% intervals, paired tests); kept as its last evaluation */
        get: operations["getKnowledgeBasesNameEvaluation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your jobs, newest first */
        get: operations["getJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Your jobs, newest first (headers only) */
        head: operations["headJobs"];
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A job: status, stage, percentage, ETA, counts, per-file errors */
        get: operations["getJobsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** A job: status, stage, percentage, ETA, counts, per-file errors (headers only) */
        head: operations["headJobsId"];
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued or running job */
        post: operations["postJobsIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your job events as server-sent events: created, progress, finished; data is a JobEvent */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search every enabled retriever, fused */
        get: operations["getSearch"];
        put?: never;
        /** Search every enabled retriever, fused */
        post: operations["postSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search, then answer citing numbered sources; stream=true answers as server-sent events (token, answer, error); the question is query, or the last user message of messages */
        post: operations["postQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ingest one text now */
        post: operations["postIngestText"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stage files and ingest them as a job */
        post: operations["postIngestFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check and keep files without ingesting them; each refused file with its reason */
        post: operations["postIngestUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/staged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ingest staged files as a job */
        post: operations["postIngestStaged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ingest/staged/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a staged file no ingest took (it stops counting against stored_mb) */
        delete: operations["deleteIngestStagedId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List visible documents, by uri, with the total */
        get: operations["getDocuments"];
        put?: never;
        /** Upload one document with its title, categories, subcategory, knowledge base and external reference; it is indexed as a job */
        post: operations["postDocuments"];
        delete?: never;
        options?: never;
        /** List visible documents, by uri, with the total (headers only) */
        head: operations["headDocuments"];
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document: status, version, chunks, size, description, and what each store holds of it, read live */
        get: operations["getDocumentsId"];
        put?: never;
        post?: never;
        /** Delete a document from the catalog, every store and the stored original */
        delete: operations["deleteDocumentsId"];
        options?: never;
        /** A document: status, version, chunks, size, description, and what each store holds of it, read live (headers only) */
        head: operations["headDocumentsId"];
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The original the document was uploaded as */
        get: operations["getDocumentsIdContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The original the document was uploaded as (headers only) */
        head: operations["headDocumentsIdContent"];
        patch?: never;
        trace?: never;
    };
    "/v1/documents/{id}/figures/{figure}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A figure's image, as search hits and answer sources list it (figures[].url) */
        get: operations["getDocumentsIdFiguresFigure"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** A figure's image, as search hits and answer sources list it (figures[].url) (headers only) */
        head: operations["headDocumentsIdFiguresFigure"];
        patch?: never;
        trace?: never;
    };
    "/v1/formats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this server accepts: media types, extensions, the size limit, OCR */
        get: operations["getFormats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** What this server accepts: media types, extensions, the size limit, OCR (headers only) */
        head: operations["headFormats"];
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your sources, with their last scan */
        get: operations["getSyncSources"];
        put?: never;
        /** Register a source (a server folder, a web site, an S3 bucket) to keep in sync with a knowledge base; its first sync starts at once (with enabled=false it is indexed once and not kept in sync) */
        post: operations["postSyncSources"];
        delete?: never;
        options?: never;
        /** Your sources, with their last scan (headers only) */
        head: operations["headSyncSources"];
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A source: settings, last scan, its error, items indexed */
        get: operations["getSyncSourcesId"];
        /** Change a source's settings; a sync reconciles the index with them */
        put: operations["putSyncSourcesId"];
        post?: never;
        /** Stop syncing a source (its running sync is canceled first; 409 when it has not stopped within 30 s); with documents=true also delete what it indexed */
        delete: operations["deleteSyncSourcesId"];
        options?: never;
        /** A source: settings, last scan, its error, items indexed (headers only) */
        head: operations["headSyncSourcesId"];
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sources/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a source: it is scanned and watched again, and a sync starts */
        post: operations["postSyncSourcesIdEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sources/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a source; its settings and state are kept */
        post: operations["postSyncSourcesIdDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sync-now": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sync every enabled source now, each as a job */
        post: operations["postSyncSyncNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sync/sources/{id}/sync-now": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sync a source now, as a job */
        post: operations["postSyncSourcesIdSyncNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/graph/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Entities whose name or alias contains q, most mentioned first */
        get: operations["getGraphEntities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Entities whose name or alias contains q, most mentioned first (headers only) */
        head: operations["headGraphEntities"];
        patch?: never;
        trace?: never;
    };
    "/v1/graph/entities/{id}/neighbours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An entity and every relation touching it */
        get: operations["getGraphEntitiesIdNeighbours"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** An entity and every relation touching it (headers only) */
        head: operations["headGraphEntitiesIdNeighbours"];
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your knowledge bases as models (OpenAI format) */
        get: operations["getModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Your knowledge bases as models (OpenAI format) (headers only) */
        head: operations["headModels"];
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer the last user message with cited sources (OpenAI chat format; stream=true for chat.completion.chunk events) */
        post: operations["postChatCompletions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your conversations, most recent first (their messages left out) */
        get: operations["getConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Your conversations, most recent first (their messages left out) (headers only) */
        head: operations["headConversations"];
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A conversation with its messages */
        get: operations["getConversationsId"];
        put?: never;
        post?: never;
        /** Delete a conversation */
        delete: operations["deleteConversationsId"];
        options?: never;
        /** A conversation with its messages (headers only) */
        head: operations["headConversationsId"];
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this tenant holds, what it used (searches, answers, documents indexed, chunks embedded, model tokens by model) and its quotas */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** What this tenant holds, what it used (searches, answers, documents indexed, chunks embedded, model tokens by model) and its quotas (headers only) */
        head: operations["headUsage"];
        patch?: never;
        trace?: never;
    };
    "/v1/admin/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant's usage and quotas (operator) */
        get: operations["getAdminUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Every tenant's usage and quotas (operator) (headers only) */
        head: operations["headAdminUsage"];
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant}/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A tenant's quotas; null: no limit (operator) */
        get: operations["getAdminTenantsTenantQuotas"];
        /** Set a tenant's quotas: documents, stored_mb, extraction_tokens_per_day, searches_per_minute; a null or missing one is no limit (operator) */
        put: operations["putAdminTenantsTenantQuotas"];
        post?: never;
        /** Remove a tenant's quotas (operator) */
        delete: operations["deleteAdminTenantsTenantQuotas"];
        options?: never;
        /** A tenant's quotas; null: no limit (operator) (headers only) */
        head: operations["headAdminTenantsTenantQuotas"];
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document: the API in OpenAPI 3.1 */
        get: operations["getOpenapi.json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** This document: the API in OpenAPI 3.1 (headers only) */
        head: operations["headOpenapi.json"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdminWireCheck: {
            documents: number;
            consistent: boolean;
            repaired: boolean;
            stores: components["schemas"]["AdminWireStoreCheck"][] | null;
        };
        AdminWireConfiguration: {
            version: string | null;
            modalities: string[] | null;
            backends: {
                [key: string]: string;
            } | null;
            embedding_model: string | null;
            dimension: number;
            fusion: string | null;
            weights: {
                [key: string]: number;
            } | null;
            rrf_k: number;
            reranker: string | null;
            answers: string | null;
            answer_model: string | null;
            graph_extractor: string | null;
            chunk_max_tokens: number;
            max_request_bytes: number;
        };
        AdminWireEntities: {
            entities: components["schemas"]["AdminWireFoundEntity"][] | null;
        };
        AdminWireFormatList: {
            media_types: string[] | null;
            extensions: string[] | null;
            max_file_mb: number;
            ocr: boolean;
        };
        AdminWireFoundEntity: {
            id: string | null;
            name: string | null;
            type: string | null;
            aliases: string[] | null;
            mentions: number;
        };
        AdminWireHealth: {
            status: string | null;
            version: string | null;
            problems: string[] | null;
            modalities: string[] | null;
            documents: number | null;
            stores: {
                [key: string]: number;
            } | null;
            embedding_model: string | null;
            dimension: number;
            auth: string | null;
        };
        AdminWireKey: {
            id: string | null;
            tenant: string | null;
            name: string | null;
            active: boolean;
            /** Format: date-time */
            created_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        AdminWireKeyList: {
            keys: components["schemas"]["AdminWireKey"][] | null;
            local_owner: string | null;
        };
        AdminWireNeighbour: {
            predicate: string | null;
            direction: string | null;
            entity: components["schemas"]["AdminWireFoundEntity"] | null;
            document_id: string | null;
            chunk_id: string | null;
        };
        AdminWireNeighbourhood: {
            entity: components["schemas"]["AdminWireFoundEntity"] | null;
            neighbours: components["schemas"]["AdminWireNeighbour"][] | null;
        };
        AdminWireNewKey: {
            key: string | null;
            id: string | null;
            tenant: string | null;
            name: string | null;
            /** Format: date-time */
            created_at: string | null;
            local_owner: boolean;
            warnings: string[] | null;
        };
        AdminWireQuotas: {
            documents?: number | null;
            stored_mb?: number | null;
            extraction_tokens_per_day?: number | null;
            searches_per_minute?: number | null;
        };
        AdminWireReady: {
            status: string | null;
            problems: string[] | null;
        };
        AdminWireReindex: {
            job_id: string | null;
            status: string | null;
            modality: string | null;
            location: string | null;
        };
        AdminWireSampleCheck: {
            ok: boolean;
            knowledge_base: string | null;
            document_id: string | null;
            steps: components["schemas"]["AdminWireSampleStep"][] | null;
        };
        AdminWireSampleStep: {
            name: string | null;
            ok: boolean;
            took_ms: number;
            detail: string | null;
        };
        AdminWireStoreCheck: {
            store: string | null;
            consistent: boolean;
            expected_records: number;
            records: number;
            orphan_versions: number;
            orphan_records: number;
            lacking_versions: number;
            lacking_records: number;
            removed_versions: number;
            reindexed_versions: number;
            examples: string[] | null;
        };
        AdminWireUsageCount: {
            metric: string | null;
            model: string | null;
            amount: number;
        };
        AdminWireUsageReport: {
            tenant: string | null;
            from: string | null;
            to: string | null;
            documents: number;
            chunks: number;
            stored_bytes: number;
            usage: components["schemas"]["AdminWireUsageCount"][] | null;
            quotas: components["schemas"]["AdminWireQuotas"] | null;
        };
        AdminWireUsageReports: {
            tenants: components["schemas"]["AdminWireUsageReport"][] | null;
        };
        ChatRoutesChatBody: {
            model: string | null;
            messages: components["schemas"]["DtosQueryMessage"][] | null;
            stream?: boolean | null;
        } & {
            [key: string]: unknown;
        };
        ChatRoutesChoice: {
            index: number;
            message: components["schemas"]["ChatRoutesMessage"] | null;
            finish_reason: string | null;
        };
        ChatRoutesCompletion: {
            id: string | null;
            object: string | null;
            created: number;
            model: string | null;
            choices: components["schemas"]["ChatRoutesChoice"][] | null;
            usage: components["schemas"]["ChatRoutesUsage"] | null;
            sources: components["schemas"]["SearchWireSource"][] | null;
            degraded: components["schemas"]["SearchWireDegraded"][] | null;
            warnings: string[] | null;
        };
        ChatRoutesMessage: {
            role: string | null;
            content: string | null;
        };
        ChatRoutesModel: {
            id: string | null;
            object: string | null;
            created: number;
            owned_by: string | null;
        };
        ChatRoutesModelList: {
            object: string | null;
            data: components["schemas"]["ChatRoutesModel"][] | null;
        };
        ChatRoutesUsage: {
            prompt_tokens: number;
            completion_tokens: number;
            total_tokens: number;
        };
        ConversationRoutesConversationList: {
            conversations: components["schemas"]["ConversationsConversation"][] | null;
            offset: number;
            limit: number;
        };
        ConversationsConversation: {
            id: string | null;
            title: string | null;
            turns: number;
            /** Format: date-time */
            created_at: string | null;
            /** Format: date-time */
            updated_at: string | null;
            messages: components["schemas"]["ConversationsMessage"][] | null;
        };
        ConversationsMessage: {
            role: string | null;
            content: string | null;
            scope?: components["schemas"]["ConversationsScope"] | null;
        };
        ConversationsScope: {
            kb: string[] | null;
            category: string | null;
            document_ids: string[] | null;
        };
        DtosAnswerProblem: {
            type: string | null;
            title: string | null;
            status: number;
            detail: string | null;
            sources: components["schemas"]["SearchWireSource"][] | null;
        };
        DtosQueryBody: {
            query?: string | null;
            top_k?: number | null;
            kb?: (string[] | null) | string;
            modalities?: string[] | null;
            fusion?: string | null;
            neighbours?: number | null;
            stream?: boolean | null;
            grounding?: boolean | null;
            category?: string | null;
            document_ids?: string[] | null;
            rrf_k?: number | null;
            weights?: {
                [key: string]: number;
            } | null;
            rerank?: boolean | null;
            messages?: components["schemas"]["DtosQueryMessage"][] | null;
            conversation_id?: string | null;
            route?: boolean | null;
            candidates?: number | null;
            fulltext_document_weight?: number | null;
            vector_document_weight?: number | null;
        };
        DtosQueryMessage: {
            role: string | null;
            content: unknown;
        } & {
            [key: string]: unknown;
        };
        DtosSearchBody: {
            query: string | null;
            top_k?: number | null;
            kb?: (string[] | null) | string;
            modalities?: string[] | null;
            fusion?: string | null;
            explain?: boolean | null;
            category?: string | null;
            document_ids?: string[] | null;
            rrf_k?: number | null;
            weights?: {
                [key: string]: number;
            } | null;
            rerank?: boolean | null;
            candidates?: number | null;
            fulltext_document_weight?: number | null;
            vector_document_weight?: number | null;
        };
        DtosSourceBody: {
            source_id: string | null;
            type: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            kb?: string | null;
            interval_seconds?: number | null;
            enabled?: boolean | null;
        };
        DtosSourceBodyWithoutSourceId: {
            source_id?: string | null;
            type: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            kb?: string | null;
            interval_seconds?: number | null;
            enabled?: boolean | null;
        };
        DtosStagedBody: {
            ids: string[] | null;
            kb?: string | null;
            skip_graph?: boolean | null;
            figures?: string | null;
        };
        DtosTextBody: {
            text: string | null;
            title?: string | null;
            uri?: string | null;
            format?: string | null;
            kb?: string | null;
            skip_graph?: boolean | null;
        };
        FusionTuning: {
            applied: boolean;
            fusion: string | null;
            weights: {
                [key: string]: number;
            } | null;
            rrf_k: number | null;
            queries: number;
            folds: number;
            ndcg10_configured: number;
            ndcg10_tuned: number;
            delta: number;
            p: number;
            reason: string | null;
            documents: number;
            /** Format: date-time */
            tuned_at: string | null;
            candidates: components["schemas"]["FusionTuningCandidate"][] | null;
            candidate_depth: number | null;
            fulltext_document_weight: number | null;
            vector_document_weight: number | null;
        };
        FusionTuningCandidate: {
            name: string | null;
            ndcg10: number;
        };
        IngestWireAccepted: {
            job_id: string | null;
            status: string | null;
            files: number;
            location: string | null;
        };
        IngestWireDocument: {
            id: string | null;
            knowledge_base: string | null;
            uri: string | null;
            title: string | null;
            media_type: string | null;
            content_hash: string | null;
            size_bytes: number;
            status: string | null;
            version: number;
            chunks: number;
            /** Format: date-time */
            updated_at: string | null;
            categories: string[] | null;
            subcategory: string | null;
            external_ref: string | null;
            original: boolean;
        };
        IngestWireDocumentAccepted: {
            job_id: string | null;
            document_id: string | null;
            status: string | null;
            location: string | null;
        };
        IngestWireDocumentDetail: {
            document: components["schemas"]["IngestWireDocument"] | null;
            stores: {
                [key: string]: components["schemas"]["IngestWireStoreState"];
            } | null;
        };
        IngestWireDocumentPage: {
            documents: components["schemas"]["IngestWireDocument"][] | null;
            offset: number;
            limit: number;
            total: number;
        };
        IngestWireIndexed: {
            uri: string | null;
            document_id: string | null;
            version: number;
            outcome: string | null;
        };
        IngestWireJob: {
            id: string | null;
            kind: string | null;
            status: string | null;
            error: string | null;
            attempts: number;
            /** Format: date-time */
            created_at: string | null;
            /** Format: date-time */
            updated_at: string | null;
            percentage: number;
            eta_seconds: number | null;
            progress: components["schemas"]["IngestWireProgress"] | null;
            knowledge_base: string | null;
            source_id: string | null;
            /** Format: date-time */
            started_at: string | null;
        };
        IngestWireJobPage: {
            jobs: components["schemas"]["IngestWireJob"][] | null;
            offset: number;
            limit: number;
        };
        IngestWireKnowledgeBase: {
            name: string | null;
            description: string | null;
            documents: number;
            chunks: number;
            /** Format: date-time */
            created_at: string | null;
        };
        IngestWireKnowledgeBaseList: {
            knowledge_bases: components["schemas"]["IngestWireKnowledgeBase"][] | null;
        };
        IngestWireProblem: {
            source: string | null;
            reason: string | null;
        };
        IngestWireProgress: {
            stage: string | null;
            total: number;
            processed: number;
            added: number;
            updated: number;
            unchanged: number;
            deleted: number;
            failed: number;
            chunks: number;
            relations: number;
            extraction_tokens: number;
            estimated_calls: number;
            estimated_tokens: number;
            stores_written: string[] | null;
            warnings: string[] | null;
            errors: components["schemas"]["IngestWireProblem"][] | null;
        };
        IngestWireReport: {
            documents: number;
            added: number;
            updated: number;
            unchanged: number;
            failed: number;
            chunks: number;
            took_ms: number;
            relations: number;
            extraction_tokens: number;
            warnings: string[] | null;
            errors: components["schemas"]["IngestWireProblem"][] | null;
            indexed: components["schemas"]["IngestWireIndexed"][] | null;
            document_id: string | null;
            version: number;
            context_tokens: number;
        };
        IngestWireSource: {
            source_id: string | null;
            type: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            knowledge_base: string | null;
            interval_seconds: number;
            enabled: boolean;
            /** Format: date-time */
            created_at: string | null;
            /** Format: date-time */
            last_scan_at: string | null;
            last_error: string | null;
            items: number;
        };
        IngestWireSourceDeleted: {
            id: string | null;
            documents_deleted: number;
        };
        IngestWireSourceList: {
            sources: components["schemas"]["IngestWireSource"][] | null;
        };
        IngestWireSourceRegistered: {
            source: components["schemas"]["IngestWireSource"] | null;
            job_id: string | null;
        };
        IngestWireStaged: {
            accepted: components["schemas"]["IngestWireStagedFile"][] | null;
            skipped: components["schemas"]["IngestWireProblem"][] | null;
        };
        IngestWireStagedFile: {
            id: string | null;
            name: string | null;
            size: number;
            media_type: string | null;
        };
        IngestWireStoreState: {
            expected: number;
            held: number;
            state: string | null;
        };
        IngestWireSyncStarted: {
            job_id: string | null;
            location: string | null;
        };
        IngestWireSyncsStarted: {
            jobs: {
                [key: string]: string;
            } | null;
        };
        JudgedQuery: {
            query_id: string | null;
            query: string | null;
            relevant: {
                [key: string]: number;
            } | null;
        };
        KbEvaluation: {
            knowledge_base: string | null;
            queries: number;
            documents: number;
            /** Format: date-time */
            evaluated_at: string | null;
            runs: components["schemas"]["KbEvaluationRun"][] | null;
        };
        KbEvaluationRun: {
            name: string | null;
            description: string | null;
            ndcg10: number;
            recall100: number;
            mrr10: number;
            ndcg10_ci95: number[] | null;
            vs_configured: components["schemas"]["SignificanceComparison"] | null;
            per_query_ndcg: {
                [key: string]: number;
            } | null;
        };
        KeyRoutesNewKey: {
            tenant: string | null;
            name?: string | null;
            adopt_local?: boolean | null;
        };
        KnowledgeBaseRoutesJudgmentList: {
            knowledge_base: string | null;
            queries: number;
            judgments: components["schemas"]["JudgedQuery"][] | null;
        };
        KnowledgeBaseRoutesJudgmentsChanged: {
            knowledge_base: string | null;
            added: number;
            deleted: number;
            queries: number;
        };
        KnowledgeBaseRoutesNewJudgments: {
            judgments: components["schemas"]["JudgedQuery"][] | null;
        };
        KnowledgeBaseRoutesNewKnowledgeBase: {
            name: string | null;
            description?: string | null;
        };
        KnowledgeBaseRoutesTuneAccepted: {
            job_id: string | null;
            status: string | null;
            knowledge_base: string | null;
            location: string | null;
        };
        Problem: {
            type: string | null;
            title: string | null;
            status: number;
            detail: string | null;
            trace_id?: string | null;
        };
        SearchWireAnswerBody: {
            query: string | null;
            answer: string | null;
            mode: string | null;
            note: string | null;
            took_ms: number;
            sources: components["schemas"]["SearchWireSource"][] | null;
            degraded: components["schemas"]["SearchWireDegraded"][] | null;
            warnings: string[] | null;
            grounding: components["schemas"]["SearchWireGrounded"][] | null;
            rewritten_query: string | null;
            conversation_id: string | null;
            route: components["schemas"]["SearchWireRoute"] | null;
        };
        SearchWireDegraded: {
            modality: string | null;
            reason: string | null;
        };
        SearchWireExplain: {
            score: number;
            contributions: {
                [key: string]: number;
            } | null;
        };
        SearchWireFigureBody: {
            id: string | null;
            number: number;
            caption: string | null;
            location: string | null;
            media_type: string | null;
            width: number;
            height: number;
            anchored: boolean;
            url: string | null;
            box: number[] | null;
        };
        SearchWireGrounded: {
            sentence: string | null;
            supported_by: number[] | null;
            cited: number[] | null;
            supported: boolean;
        };
        SearchWireHit: {
            rank: number;
            score: number;
            document_id: string | null;
            chunk_id: string | null;
            uri: string | null;
            title: string | null;
            text: string | null;
            kind: string | null;
            heading_path: string[] | null;
            location: string | null;
            knowledge_base: string | null;
            version: number;
            ordinal: number;
            retrievers: {
                [key: string]: components["schemas"]["SearchWireScore"];
            } | null;
            merged: string[] | null;
            explain: components["schemas"]["SearchWireExplain"] | null;
            figures: components["schemas"]["SearchWireFigureBody"][] | null;
        };
        SearchWirePassage: {
            chunk_id: string | null;
            ordinal: number;
            kind: string | null;
            heading_path: string[] | null;
            text: string | null;
            hit: boolean;
            location: string | null;
        };
        SearchWireResults: {
            query: string | null;
            took_ms: number;
            modalities: string[] | null;
            degraded: components["schemas"]["SearchWireDegraded"][] | null;
            warnings: string[] | null;
            fusion: string | null;
            hits: components["schemas"]["SearchWireHit"][] | null;
        };
        SearchWireRoute: {
            intent: string | null;
            scope: string | null;
            reason: string | null;
            by: string | null;
            top_k: number;
            neighbours: number;
            style: string | null;
        };
        SearchWireScore: {
            rank: number;
            score: number;
        };
        SearchWireSource: {
            number: number;
            document_id: string | null;
            title: string | null;
            uri: string | null;
            knowledge_base: string | null;
            passages: components["schemas"]["SearchWirePassage"][] | null;
            figures: components["schemas"]["SearchWireFigureBody"][] | null;
        };
        SignificanceComparison: {
            run: string | null;
            delta: number;
            ci95: number[] | null;
            p: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the server's state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireHealth"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the server's state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the metrics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the metrics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireConfiguration"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postSampleCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the steps; ok is false when one failed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireSampleCheck"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireReady"];
                };
            };
            /** @description not ready, with the problems */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireReady"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not ready, with the problems */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getAdminCheck: {
        parameters: {
            query?: {
                /** @description refused here: a repair is POST /v1/admin/check?repair=true */
                repair?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireCheck"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postAdminCheck: {
        parameters: {
            query?: {
                /** @description remove orphans and re-index what a store lacks */
                repair?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireCheck"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postAdminReindex: {
        parameters: {
            query?: {
                /** @description vector, fulltext, graph or rdf; absent: every store that lacks records */
                modality?: string;
                /** @description with a modality: rebuild that store from every document, not only where records are missing (graph: extracted again after an extractor upgrade; vector, fulltext: indexed again, with chunk contexts once contextual retrieval is on) */
                all?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job, queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireReindex"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAdminJobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireJob"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headAdminJobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postAdminJobsIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job, canceled or stopping */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireJob"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAdminKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireKeyList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postAdminKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyRoutesNewKey"];
            };
        };
        responses: {
            /** @description the key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireNewKey"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headAdminKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deleteAdminKeysId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getKnowledgeBases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the knowledge bases */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireKnowledgeBaseList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postKnowledgeBases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KnowledgeBaseRoutesNewKnowledgeBase"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireKnowledgeBase"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headKnowledgeBases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the knowledge bases */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getKnowledgeBasesName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the knowledge base */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireKnowledgeBase"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteKnowledgeBasesName: {
        parameters: {
            query?: {
                /** @description also delete the sync sources feeding it (without it, a knowledge base a source feeds is a 409 naming them) */
                force?: boolean;
            };
            header?: never;
            path: {
                /** @description its name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headKnowledgeBasesName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the knowledge base */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getKnowledgeBasesNameJudgments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its judged queries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseRoutesJudgmentList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postKnowledgeBasesNameJudgments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KnowledgeBaseRoutesNewJudgments"];
                "multipart/form-data": {
                    qrels: string;
                    queries: string;
                };
            };
        };
        responses: {
            /** @description what was added */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseRoutesJudgmentsChanged"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteKnowledgeBasesNameJudgments: {
        parameters: {
            query?: {
                /** @description only this judged query */
                query_id?: string;
            };
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description what was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseRoutesJudgmentsChanged"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headKnowledgeBasesNameJudgments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its judged queries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postKnowledgeBasesNameTune: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job, queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseRoutesTuneAccepted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getKnowledgeBasesNameTuning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tuning */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FusionTuning"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteKnowledgeBasesNameTuning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description dropped */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headKnowledgeBasesNameTuning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tuning */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getKnowledgeBasesNameEvaluation: {
        parameters: {
            query?: {
                /** @description return the last evaluation kept instead of running one */
                last?: boolean;
            };
            header?: never;
            path: {
                /** @description the knowledge base */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the evaluation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KbEvaluation"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getJobs: {
        parameters: {
            query?: {
                /** @description jobs to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireJobPage"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headJobs: {
        parameters: {
            query?: {
                /** @description jobs to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getJobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireJob"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headJobsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postJobsIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the job id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job, canceled or stopping */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireJob"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description resume after this event id */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the stream (text/event-stream), until the client leaves */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSearch: {
        parameters: {
            query: {
                /** @description the text to search for */
                q: string;
                /** @description hits wanted */
                top_k?: number;
                /** @description knowledge bases, comma-separated or repeated; default: all of yours */
                kb?: string;
                /** @description vector,fulltext,graph,rdf; default: all enabled */
                modalities?: string;
                /** @description rrf or weighted */
                fusion?: string;
                /** @description add per-modality contributions and the fusion arithmetic */
                explain?: boolean;
                /** @description only hits of documents with this category */
                category?: string;
                /** @description only hits of these documents, comma-separated or repeated */
                document_id?: string;
                /** @description this search's RRF k, 1-10000 */
                rrf_k?: number;
                /** @description each leg's depth for this search, 1-1000 (search.candidates) */
                candidates?: number;
                /** @description the full-text leg's blend of each passage with its whole document for this search, 0-1 (fulltext.document.weight) */
                fulltext_document_weight?: number;
                /** @description the vector leg's blend of each passage with its document's whole vector, where it has one, for this search, 0-1 (vector.document.weight) */
                vector_document_weight?: number;
                /** @description false skips the configured reranker */
                rerank?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the fused hits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchWireResults"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSearch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosSearchBody"];
            };
        };
        responses: {
            /** @description the fused hits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchWireResults"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postQuery: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosQueryBody"];
            };
        };
        responses: {
            /** @description the answer with its sources (or, with stream, text/event-stream) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchWireAnswerBody"];
                };
            };
            /** @description the model failed; the sources are still there */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["DtosAnswerProblem"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postIngestText: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosTextBody"];
            };
        };
        responses: {
            /** @description the report, with the text's document_id and version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireReport"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postIngestFiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    files: string[];
                    kb?: string;
                    skip_graph?: string;
                    figures?: string;
                };
            };
        };
        responses: {
            /** @description the job, queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireAccepted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postIngestUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    files: string[];
                    kb?: string;
                };
            };
        };
        responses: {
            /** @description accepted and skipped files */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireStaged"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postIngestStaged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosStagedBody"];
            };
        };
        responses: {
            /** @description the job, queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireAccepted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteIngestStagedId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description an id POST /v1/ingest/upload accepted */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDocuments: {
        parameters: {
            query?: {
                /** @description one knowledge base; default: all of yours */
                kb?: string;
                /** @description only documents with this category */
                category?: string;
                /** @description indexing, indexed or updating; several comma-separated; default: indexed,updating (what search sees) */
                status?: string;
                /** @description documents to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of documents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireDocumentPage"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string;
                    title?: string;
                    categories?: string[];
                    subcategory?: string;
                    kb?: string;
                    external_ref?: string;
                    figures?: string;
                    skip_graph?: string;
                };
            };
        };
        responses: {
            /** @description the job, queued, and the document's id */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireDocumentAccepted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headDocuments: {
        parameters: {
            query?: {
                /** @description one knowledge base; default: all of yours */
                kb?: string;
                /** @description only documents with this category */
                category?: string;
                /** @description indexing, indexed or updating; several comma-separated; default: indexed,updating (what search sees) */
                status?: string;
                /** @description documents to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of documents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getDocumentsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the document id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireDocumentDetail"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteDocumentsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the document id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headDocumentsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the document id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getDocumentsIdContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description one byte range: bytes=a-b, a- or -n */
                Range?: string;
            };
            path: {
                /** @description the document id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its bytes, with its media type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description the bytes of the range asked for */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description the range lies beyond the content (Content-Range: bytes *\/size) */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headDocumentsIdContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description one byte range: bytes=a-b, a- or -n */
                Range?: string;
            };
            path: {
                /** @description the document id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its bytes, with its media type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the bytes of the range asked for */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the range lies beyond the content (Content-Range: bytes *\/size) */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getDocumentsIdFiguresFigure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the document id */
                id: string;
                /** @description the figure's number in the document, from 1 */
                figure: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the image, with its media type (image/png, image/jpeg) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headDocumentsIdFiguresFigure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the document id */
                id: string;
                /** @description the figure's number in the document, from 1 */
                figure: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the image, with its media type (image/png, image/jpeg) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getFormats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the accepted formats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireFormatList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headFormats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the accepted formats */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getSyncSources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the sources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSyncSources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosSourceBody"];
            };
        };
        responses: {
            /** @description registered, with its first sync's job */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceRegistered"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headSyncSources: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the sources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getSyncSourcesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSource"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putSyncSourcesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DtosSourceBodyWithoutSourceId"];
            };
        };
        responses: {
            /** @description changed, with the sync it started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceRegistered"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteSyncSourcesId: {
        parameters: {
            query?: {
                /** @description also delete its documents from every store */
                documents?: boolean;
            };
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceDeleted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headSyncSourcesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postSyncSourcesIdEnable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description enabled, with its sync's job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceRegistered"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSyncSourcesIdDisable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description disabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSourceRegistered"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSyncSyncNow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description each source's job */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSyncsStarted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSyncSourcesIdSyncNow: {
        parameters: {
            query?: {
                /** @description this sync's own cap on deletes, 1-100 (the server's POLYRAG_SYNC_MAX_DELETE_PERCENT otherwise): 100 confirms that most of the source is gone (or narrowed settings no longer select it); 409 while a sync of it is queued or running */
                max_delete_percent?: number;
            };
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the sync's job */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestWireSyncStarted"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getGraphEntities: {
        parameters: {
            query: {
                /** @description part of an entity's name */
                q: string;
                /** @description count mentions in it only */
                kb?: string;
                /** @description 1-1000, default 20 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description entities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireEntities"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headGraphEntities: {
        parameters: {
            query: {
                /** @description part of an entity's name */
                q: string;
                /** @description count mentions in it only */
                kb?: string;
                /** @description 1-1000, default 20 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description entities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getGraphEntitiesIdNeighbours: {
        parameters: {
            query?: {
                /** @description 1-1000, default 50 */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the entity id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the entity and its relations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireNeighbourhood"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headGraphEntitiesIdNeighbours: {
        parameters: {
            query?: {
                /** @description 1-1000, default 50 */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the entity id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the entity and its relations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the models */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatRoutesModelList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the models */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postChatCompletions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRoutesChatBody"];
            };
        };
        responses: {
            /** @description the completion (or, with stream, text/event-stream of chunks) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatRoutesCompletion"];
                };
            };
            /** @description the model failed; the sources are still there */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["DtosAnswerProblem"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getConversations: {
        parameters: {
            query?: {
                /** @description conversations to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of conversations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationRoutesConversationList"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headConversations: {
        parameters: {
            query?: {
                /** @description conversations to skip */
                offset?: number;
                /** @description page size, 1-1000 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of conversations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getConversationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationsConversation"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteConversationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headConversationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description its id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to' */
                from?: string;
                /** @description last day counted, YYYY-MM-DD (UTC); default: today */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tenant's report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireUsageReport"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headUsage: {
        parameters: {
            query?: {
                /** @description first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to' */
                from?: string;
                /** @description last day counted, YYYY-MM-DD (UTC); default: today */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tenant's report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getAdminUsage: {
        parameters: {
            query?: {
                /** @description first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to' */
                from?: string;
                /** @description last day counted, YYYY-MM-DD (UTC); default: today */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one report per tenant that holds, used or has quotas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireUsageReports"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headAdminUsage: {
        parameters: {
            query?: {
                /** @description first day counted, YYYY-MM-DD (UTC); default: the first of the month of 'to' */
                from?: string;
                /** @description last day counted, YYYY-MM-DD (UTC); default: today */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one report per tenant that holds, used or has quotas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getAdminTenantsTenantQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the tenant */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the quotas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireQuotas"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putAdminTenantsTenantQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the tenant */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminWireQuotas"];
            };
        };
        responses: {
            /** @description the quotas now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWireQuotas"];
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteAdminTenantsTenantQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the tenant */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    headAdminTenantsTenantQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the tenant */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the quotas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "getOpenapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description a problem with the request; the detail names the field and the fix */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description a problem of the server or a store; the detail says which, and what to do */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "headOpenapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem with the request (headers only) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description a problem of the server (headers only) */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
