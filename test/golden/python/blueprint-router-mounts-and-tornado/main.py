from fastapi import FastAPI
from app.routers import items
from admin import admin_app

app = FastAPI()
app.include_router(items.router, prefix="/items", tags=["items"])
app.mount("/admin", admin_app)
